//go:build !linux

package dirwatch

import (
	"errors"
	"os"
	"sync"
	"time"
)

// gone0 looks once a minute on platforms without inotify here; the shim's
// data dir going away there is an uninstall, which need not be noticed
// within the second.
func gone0(dir string) (<-chan struct{}, func(), error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, err
	}
	gone := make(chan struct{})
	quit := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
					close(gone)
					return
				}
			}
		}
	}()
	return gone, func() { once.Do(func() { close(quit) }) }, nil
}

// arrivals0 signals every 5 ms where inotify is not used here: it serves
// only a starting shim's wait (bounded by its start timeout).
func arrivals0(dir string) (<-chan struct{}, func(), error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, err
	}
	arrived := make(chan struct{}, 1)
	quit := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				select {
				case arrived <- struct{}{}:
				default:
				}
			}
		}
	}()
	return arrived, func() { once.Do(func() { close(quit) }) }, nil
}
