package service

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckWorkspaceSetting(t *testing.T) {
	tests := []struct {
		name, key, value string
		ok               bool
	}{
		{"worktree", SettingWorkspaceDefault, `{"prj_1":"worktree"}`, true},
		{"checkout and worktree", SettingWorkspaceDefault, `{"prj_1":"checkout","prj_2":"worktree"}`, true},
		{"empty map", SettingWorkspaceDefault, `{}`, true},
		{"null clears", SettingWorkspaceDefault, `null`, true},
		{"unknown kind", SettingWorkspaceDefault, `{"prj_1":"folder"}`, false},
		{"empty kind", SettingWorkspaceDefault, `{"prj_1":""}`, false},
		{"empty project id", SettingWorkspaceDefault, `{"":"worktree"}`, false},
		{"a bare word", SettingWorkspaceDefault, `"worktree"`, false},
		{"a number", SettingWorkspaceDefault, `3`, false},
		{"location repo", SettingWorktreeLocation, `"repo"`, true},
		{"location data", SettingWorktreeLocation, `"data"`, true},
		{"location null clears", SettingWorktreeLocation, `null`, true},
		{"location elsewhere", SettingWorktreeLocation, `"/tmp"`, false},
		{"location not a string", SettingWorktreeLocation, `{"where":"data"}`, false},
		{"other settings pass", "theme", `"dark"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkWorkspaceSetting(tt.key, json.RawMessage(tt.value))
			if tt.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || CodeOf(err) != CodeBadRequest || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("got %v, want a bad request naming %s", err, tt.key)
			}
		})
	}
}
