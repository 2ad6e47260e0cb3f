package dirwatch

import (
	"os"
	"strconv"
	"sync"
	"time"
)

// When no inotify instance can be had (the user's limit, 128 by default, is
// used up by other programs), the watches fall back to looking: a shim
// still ends when its data dir goes, a starting shim's bootstrap is still
// read, only later. The caller cannot tell, and need not. Looking is the
// one thing left that tells; what it costs an idle process
// (docs/ARCHITECTURE.md §Idle): a Gone watch looks once a second (60
// wake-ups a minute per watch); a Changes watch looks 20 ms after its start
// or the last change it saw, then ever more slowly, to once a second while
// nothing changes, and signals only when the folder's entries differ (an
// idle `serve` does not re-read its token 50 times a second).
const (
	pollGoneEvery    = time.Second
	pollChangesFirst = 20 * time.Millisecond
	pollChangesMost  = time.Second
)

// pollGone closes gone once dir no longer exists, looking every second.
func pollGone(dir string) (<-chan struct{}, func(), error) {
	gone := make(chan struct{})
	stop, err := look(dir, pollGoneEvery, pollGoneEvery, func() (news, end bool) {
		if exists(dir) {
			return false, false
		}
		close(gone)
		return true, true
	})
	return gone, stop, err
}

// pollChanges signals when dir's entries (names, sizes, times) differ from
// the last look: the waiter then re-reads what it waits for.
func pollChanges(dir string) (<-chan struct{}, func(), error) {
	changed := make(chan struct{}, 1)
	last := snapshot(dir)
	stop, err := look(dir, pollChangesFirst, pollChangesMost, func() (news, end bool) {
		now := snapshot(dir)
		if now == last {
			return false, false
		}
		last = now
		select {
		case changed <- struct{}{}:
		default:
		}
		return true, false
	})
	return changed, stop, err
}

// snapshot describes dir's entries as they are now; two equal snapshots
// mean nothing in dir was created, renamed, removed or rewritten (as far as
// names, sizes and modification times tell).
func snapshot(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	b := make([]byte, 0, 64*len(entries))
	for _, e := range entries {
		b = append(b, e.Name()...)
		if info, err := e.Info(); err == nil {
			b = append(b, ' ')
			b = info.ModTime().AppendFormat(b, time.RFC3339Nano)
			b = append(b, ' ')
			b = strconv.AppendInt(b, info.Size(), 10)
		}
		b = append(b, '\n')
	}
	return string(b)
}

// newTimer is time.NewTimer's channel and Stop; a var so that a test can
// count and fire the looks itself.
var newTimer = func(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// look calls on after first, then after twice the last wait (at most most)
// while on reports nothing new, and after first again once it does; it ends
// when on reports the end or stop is called. A chain of one-shot timers,
// not a ticker: the waits grow while nothing happens. dir must exist to
// begin with.
func look(dir string, first, most time.Duration, on func() (news, end bool)) (func(), error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	quit := make(chan struct{})
	var once sync.Once
	timer := newTimer
	go func() {
		wait := first
		for {
			c, stop := timer(wait)
			select {
			case <-quit:
				stop()
				return
			case <-c:
			}
			news, end := on()
			switch {
			case end:
				return
			case news:
				wait = first
			default:
				wait = min(2*wait, most)
			}
		}
	}()
	return func() { once.Do(func() { close(quit) }) }, nil
}
