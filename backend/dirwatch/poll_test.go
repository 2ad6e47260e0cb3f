package dirwatch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Without inotify, a quiet folder is no change: the waiter is not woken to
// re-read what did not change (an idle serve re-read its token file 50
// times a second), and a change still is one.
func TestWithoutInotifyQuietIsNoChange(t *testing.T) {
	if !inotifyAvailable() {
		t.Skip("inotify is not used on this platform")
	}
	restore := noInotify()
	defer restore()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "serve.token"), []byte("a"), 0o600)
	changed, stop, err := Changes(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// Ten looks at least (20 ms, 40 ms, … capped at 1 s would be six;
	// the old ticker looked every 20 ms and signalled each time).
	select {
	case <-changed:
		t.Fatal("a folder nobody touched was signalled as changed")
	case <-time.After(300 * time.Millisecond):
	}
	os.WriteFile(filepath.Join(dir, "serve.token"), []byte("bb"), 0o600)
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("a rewritten file was not a change")
	}
}

// fakeLooks replaces the looks' timers: each wait asked for is sent on
// waits, and the look happens when the test sends on fire. The next wait
// asked for means the look is over.
func fakeLooks(t *testing.T) (waits <-chan time.Duration, fire chan<- time.Time) {
	w := make(chan time.Duration, 1)
	f := make(chan time.Time)
	old := newTimer
	newTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
		w <- d
		return f, func() bool { return true }
	}
	t.Cleanup(func() { newTimer = old })
	return w, f
}

// The looks slow down while nothing changes, to once a second, and speed
// up again after a change; each change is signalled once.
func TestPollChangesBacksOff(t *testing.T) {
	waits, fire := fakeLooks(t)
	dir := t.TempDir()
	changed, stop, err := pollChanges(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	got := []time.Duration{<-waits}
	look := func() {
		fire <- time.Time{}
		got = append(got, <-waits)
	}
	for range 8 {
		look()
	}
	select {
	case <-changed:
		t.Fatal("signalled without a change")
	default:
	}
	os.WriteFile(filepath.Join(dir, "bootstrap.json"), []byte("{}"), 0o600)
	look()
	<-changed
	look()
	ms := time.Millisecond
	want := []time.Duration{20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, time.Second, time.Second, time.Second, 20 * ms, 40 * ms}
	if !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
	select {
	case <-changed:
		t.Fatal("one change signalled twice")
	default:
	}
}

// A Gone watch looks once a second and ends with the folder.
func TestPollGoneLooksOnceASecond(t *testing.T) {
	waits, fire := fakeLooks(t)
	dir := filepath.Join(t.TempDir(), "data")
	os.Mkdir(dir, 0o700)
	gone, stop, err := pollGone(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for range 3 {
		if d := <-waits; d != time.Second {
			t.Fatalf("looked after %v, want 1s", d)
		}
		fire <- time.Time{}
	}
	<-waits // the third look is over
	os.Remove(dir)
	fire <- time.Time{}
	waitGone(t, gone)
	select {
	case d := <-waits:
		t.Fatalf("looked again (after %v) once the folder was gone", d)
	case <-time.After(100 * time.Millisecond):
	}
}
