package control

import (
	"os"
	"strings"
)

// A shim runs its Go scheduler on one P: it is I/O-bound (agent pipes,
// SQLite in C, sockets), and every P caches partly used heap spans of its
// own, ~0.4 MiB of an idle warm shim on two cores, more on more
// (docs/ARCHITECTURE.md §Memory). The runtime reads GOMAXPROCS before any
// of our code runs, so the supervisor puts it in the shim's environment,
// with OneProcMarker to say it did: the shim then removes both, and the
// agents it starts inherit neither. A GOMAXPROCS a person set is kept.
const OneProcMarker = "HERMESDESK_SHIM_ONE_P"

// ShimEnv is the environment a supervisor starts a shim with: env (nil:
// this process's), plus GOMAXPROCS=1 and OneProcMarker unless env sets
// GOMAXPROCS already.
func ShimEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOMAXPROCS=") {
			return env
		}
	}
	out := make([]string, 0, len(env)+2)
	out = append(out, env...)
	return append(out, "GOMAXPROCS=1", OneProcMarker+"=1")
}

// DropOneProc undoes ShimEnv in the shim's own environment, so what it
// starts (agents, their tools) gets the scheduler default again.
func DropOneProc() {
	if os.Getenv(OneProcMarker) == "" {
		return
	}
	os.Unsetenv("GOMAXPROCS")
	os.Unsetenv(OneProcMarker)
}
