package control

import (
	"os"
	"slices"
	"testing"
)

func TestShimEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want []string
	}{
		{"one P added", []string{"HOME=/h"}, []string{"HOME=/h", "GOMAXPROCS=1", OneProcMarker + "=1"}},
		{"a person's GOMAXPROCS kept", []string{"GOMAXPROCS=4", "HOME=/h"}, []string{"GOMAXPROCS=4", "HOME=/h"}},
		{"empty GOMAXPROCS kept", []string{"GOMAXPROCS="}, []string{"GOMAXPROCS="}},
		{"a name that only starts alike", []string{"GOMAXPROCSX=2"}, []string{"GOMAXPROCSX=2", "GOMAXPROCS=1", OneProcMarker + "=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.env)
			if got := ShimEnv(tc.env); !slices.Equal(got, tc.want) {
				t.Fatalf("ShimEnv(%q) = %q, want %q", tc.env, got, tc.want)
			}
			if !slices.Equal(in, tc.env) {
				t.Fatalf("ShimEnv changed its input: %q", tc.env)
			}
		})
	}
}

func TestShimEnvInheritsThisProcess(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	os.Unsetenv("GOMAXPROCS")
	t.Setenv("HERMESDESK_ENV_PROBE", "x")
	got := ShimEnv(nil)
	for _, want := range []string{"HERMESDESK_ENV_PROBE=x", "GOMAXPROCS=1", OneProcMarker + "=1"} {
		if !slices.Contains(got, want) {
			t.Fatalf("ShimEnv(nil) lacks %q", want)
		}
	}
}

func TestDropOneProc(t *testing.T) {
	for _, tc := range []struct {
		name       string
		marker     bool
		wantProcs  string
		wantMarker bool
	}{
		{"set by the supervisor: removed", true, "", false},
		{"set by a person: kept", false, "1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMAXPROCS", "1")
			t.Setenv(OneProcMarker, "")
			os.Unsetenv(OneProcMarker)
			if tc.marker {
				t.Setenv(OneProcMarker, "1")
			}
			DropOneProc()
			if got := os.Getenv("GOMAXPROCS"); got != tc.wantProcs {
				t.Fatalf("GOMAXPROCS = %q, want %q", got, tc.wantProcs)
			}
			if _, ok := os.LookupEnv(OneProcMarker); ok != tc.wantMarker {
				t.Fatalf("marker present = %v, want %v", ok, tc.wantMarker)
			}
		})
	}
}
