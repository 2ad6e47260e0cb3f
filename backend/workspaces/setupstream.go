package workspaces

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A setup script's output streams while it runs (docs/ARCHITECTURE.md
// §Workspaces, "Setup"): each write wakes a publisher that sends the last
// setupTailBytes on the watch bus as workspace.changed, then rests
// setupProgressEvery, so a chatty script costs a few messages a second and
// a quiet one none. Nothing is journaled until the script ends.
const setupTailBytes = 4 << 10

var setupProgressEvery = 250 * time.Millisecond

// setupOutput is the script's combined output; every Write rings wake.
type setupOutput struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	wake chan struct{}
}

func newSetupOutput() *setupOutput { return &setupOutput{wake: make(chan struct{}, 1)} }

func (o *setupOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	n, err := o.buf.Write(p)
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default: // a wake-up is pending already: coalesced
	}
	return n, err
}

func (o *setupOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Tail is the output's last setupTailBytes, starting at a whole character,
// with "…" in front when something was left off.
func (o *setupOutput) Tail() string {
	o.mu.Lock()
	b := o.buf.Bytes()
	cut := len(b) > setupTailBytes
	if cut {
		b = b[len(b)-setupTailBytes:]
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
		}
	}
	s := string(b)
	o.mu.Unlock()
	if cut {
		return "…" + s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// streamSetup publishes o's tail to progress after each write (coalesced,
// at most one per setupProgressEvery) until the returned stop is called;
// stop waits for a publish under way, so none comes after it.
func streamSetup(o *setupOutput, progress func(tail string)) (stop func()) {
	if progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-o.wake:
			}
			progress(o.Tail())
			// Rest before the next: writes meanwhile are coalesced.
			select {
			case <-done:
				return
			case <-time.After(setupProgressEvery):
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// setupProgress publishes a running setup's output tail as the workspace
// as journaled with that output (workspace.changed), while its setup is
// still running; the journal keeps the whole output when it ends.
func (m *Manager) setupProgress(ctx context.Context, id string) func(string) {
	if m.Changed == nil {
		return nil
	}
	return func(tail string) {
		cur, err := m.store.GetWorkspace(ctx, id)
		if err != nil || cur.SetupStatus != SetupRunning {
			return
		}
		cur.SetupOutput = tail
		m.Changed(cur)
	}
}
