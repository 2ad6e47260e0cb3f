package dirwatch

import (
	"os"
	"sync"
	"time"
)

// When no inotify instance can be had (the user's limit, 128 by default, is
// used up by other programs), the watches fall back to looking: a shim
// still ends when its data dir goes, a starting shim's bootstrap is still
// read, only with a timer. The caller cannot tell, and need not.
const (
	pollGoneEvery    = time.Second
	pollChangesEvery = 20 * time.Millisecond
)

// pollGone closes gone once dir no longer exists, looking every interval.
func pollGone(dir string, every time.Duration) (<-chan struct{}, func(), error) {
	gone := make(chan struct{})
	stop, err := look(dir, every, func() bool {
		if exists(dir) {
			return true
		}
		close(gone)
		return false
	})
	return gone, stop, err
}

// pollChanges signals every interval: the waiter re-reads what it waits for.
func pollChanges(dir string, every time.Duration) (<-chan struct{}, func(), error) {
	changed := make(chan struct{}, 1)
	stop, err := look(dir, every, func() bool {
		select {
		case changed <- struct{}{}:
		default:
		}
		return true
	})
	return changed, stop, err
}

// look calls on every interval until it returns false or stop is called;
// dir must exist to begin with.
func look(dir string, every time.Duration, on func() bool) (func(), error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	quit := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if !on() {
					return
				}
			}
		}
	}()
	return func() { once.Do(func() { close(quit) }) }, nil
}
