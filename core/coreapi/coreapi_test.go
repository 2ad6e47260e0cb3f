package coreapi

import "testing"

func TestNewer(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"0.2.0", "0.1.0", true},
		{"0.10.0", "0.9.1", true},
		{"1.0.0", "0.99.99", true},
		{"0.1.0", "0.1.0", false},
		{"0.1.0", "0.2.0", false},
		{"0.2.0-rc1", "0.1.0", true},
		{"dev", "0.1.0", false}, // a developer's build never takes over on its own
		{"0.1.0", "dev", true},  // an installed release replaces a dev core
		{"dev", "dev", false},
		{"1.2", "1.1.0", false}, // not a full version
		{"", "0.1.0", false},
		{"99999999999.0.0", "0.1.0", false},
	}
	for _, tt := range tests {
		if got := Newer(tt.a, tt.b); got != tt.want {
			t.Errorf("Newer(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
