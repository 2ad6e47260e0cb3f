package service

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckLimitSetting(t *testing.T) {
	tests := []struct {
		name, key, value string
		ok               bool
	}{
		{"runs in range", "max_concurrent_runs", "2", true},
		{"runs null clears", "max_concurrent_runs", "null", true},
		{"runs zero", "max_concurrent_runs", "0", false},
		{"runs negative", "max_concurrent_runs", "-3", false},
		{"runs too many", "max_concurrent_runs", "65", false},
		{"runs fraction", "max_concurrent_runs", "1.5", false},
		{"runs as text", "max_concurrent_runs", `"4"`, false},
		{"warm zero allowed", "max_warm_agents", "0", true},
		{"warm negative", "max_warm_agents", "-1", false},
		{"other settings pass", "theme", `"dark"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkLimitSetting(tt.key, json.RawMessage(tt.value))
			if tt.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || CodeOf(err) != CodeBadRequest || !strings.Contains(err.Error(), tt.key) || !strings.Contains(err.Error(), "whole number") {
				t.Fatalf("got %v, want a bad request naming %s", err, tt.key)
			}
		})
	}
}
