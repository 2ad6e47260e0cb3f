//go:build unix

package control

import (
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// A probe of a free lock must never make the lock look held afterwards.
// flock belongs to the open file description, so a child forked while
// the probe's descriptor is open shares it until the child execs: the
// lock stays held after the probe closed it, and the next probe (the
// scheduler's "is a shim already running this queued run?") says yes.
// That is how accepted queued runs were adopted, waited for and fenced
// as interrupted without ever starting (docs/ARCHITECTURE.md §Fencing).
func TestIsLockedSeesNoLockInheritedByAForkedChild(t *testing.T) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no `true` program to fork")
	}
	// The first process start runs Go's one-time pidfd check, which forks
	// a child outside syscall.ForkLock; later starts all hold it.
	if err := exec.Command(truePath).Run(); err != nil {
		t.Skip("cannot run `true`:", err)
	}
	path := filepath.Join(t.TempDir(), "lock")
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				exec.Command(truePath).Run()
			}
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()
	const probes = 20000
	for i := range probes {
		locked, err := IsLocked(path)
		if err != nil {
			t.Fatal(err)
		}
		if locked {
			t.Fatalf("probe %d of %d: a free lock looked held (a forked child kept the probe's lock)", i, probes)
		}
	}
}
