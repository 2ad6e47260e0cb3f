package run

import "testing"

func TestHostLabel(t *testing.T) {
	for _, tc := range []struct {
		name, id, target, want string
	}{
		{"the target typed", "host_1a2b", "build-box", "build-box"},
		{"user at address", "host_1a2b", "me@10.0.0.5", "me@10.0.0.5"},
		{"no record known", "host_1a2b", "", "host_1a2b"},
		{"blank target", "host_1a2b", "  ", "host_1a2b"},
		{"this machine", "", "", ""},
	} {
		if got := HostLabel(tc.id, tc.target); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := (HostState{Host: "host_1"}).Label(); got != "host_1" {
		t.Errorf("state without record: %q", got)
	}
	if got := (HostState{Host: "host_1", Record: &Host{ID: "host_1", Target: "me@box"}}).Label(); got != "me@box" {
		t.Errorf("state with record: %q", got)
	}
	if got := (RunState{Host: "host_1", HostName: "me@box"}).Where(); got != "me@box" {
		t.Errorf("run Where: %q", got)
	}
}
