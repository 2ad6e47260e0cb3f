package service

import (
	"context"
	"sync"
	"time"
)

// ringPoll is how often Rings looks for active runs it did not start
// itself (runs started by another door, adopted after a restart).
const ringPoll = 250 * time.Millisecond

// Rings calls ring(run, seq) for every live event of every active run
// until ctx ends: the source of the desktop app's doorbells. Each active
// run is followed through the Runner's live feed (memory, not polling the
// journal); runs are discovered when started here and every ringPoll.
// ring must not block.
func (s *Service) Rings(ctx context.Context, ring func(runID string, seq int64)) {
	var (
		mu       sync.Mutex
		watching = map[string]bool{}
		wg       sync.WaitGroup
	)
	defer wg.Wait()
	t := time.NewTicker(ringPoll)
	defer t.Stop()
	for {
		runs, err := s.store.Runs(ctx, RunFilter{ActiveOnly: true, Limit: MaxPage})
		if err != nil && ctx.Err() == nil {
			s.log.Warn("service: doorbells: list active runs", "err", err)
		}
		for _, r := range runs {
			mu.Lock()
			seen := watching[r.ID]
			watching[r.ID] = true
			mu.Unlock()
			if seen {
				continue
			}
			wg.Add(1)
			go func(id string, after int64) {
				defer wg.Done()
				defer func() { mu.Lock(); delete(watching, id); mu.Unlock() }()
				ch, err := s.runner.Watch(ctx, id, after)
				if err != nil {
					return
				}
				for ev := range ch {
					ring(ev.RunID, ev.Seq)
				}
			}(r.ID, r.LastSeq)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.kick:
		}
	}
}

func (s *Service) kickRings() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}
