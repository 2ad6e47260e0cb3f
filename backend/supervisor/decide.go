package supervisor

import "github.com/hermesdesk/hermesdesk/backend/run"

// The supervisor's decisions, pure and table-tested (decide_test.go); the
// methods that act on them (schedule, check) only gather facts and carry
// the result out. docs/ARCHITECTURE.md §Fencing.

// queueFacts is what schedule decides from.
type queueFacts struct {
	runs      []run.Run       // active runs, oldest first
	tracked   map[string]bool // runs whose shim this supervisor launched or adopted
	specs     map[string]bool // queued runs whose start request (spec.json) exists
	preparing bool            // a Start is writing a spec right now
	max       int             // MaxConcurrent
}

// queuePlan says which queued runs to launch now and which lost their start
// request (they end interrupted).
type queuePlan struct {
	launch []run.Run
	lost   []string
}

// planQueue: at most one active run per session, at most max running
// overall, oldest first. A queued run whose spec is missing lost its start
// request — unless a Start is writing one right now, then it waits.
func planQueue(f queueFacts) queuePlan {
	var p queuePlan
	busy := map[string]bool{}
	n := 0
	for _, r := range f.runs {
		if f.tracked[r.ID] || r.Status != run.StatusQueued {
			busy[r.SessionID] = true
			n++
		}
	}
	for _, r := range f.runs {
		if r.Status != run.StatusQueued || f.tracked[r.ID] {
			continue
		}
		if n >= f.max || busy[r.SessionID] {
			continue
		}
		if !f.specs[r.ID] {
			if !f.preparing {
				p.lost = append(p.lost, r.ID)
			}
			continue
		}
		p.launch = append(p.launch, r)
		busy[r.SessionID] = true
		n++
	}
	return p
}

// checkFacts is what check knows about a followed run whose connection
// dropped.
type checkFacts struct {
	terminal bool // the run has its terminal event
	lockHeld bool // TryLock found the run's lock held
	lockErr  bool // TryLock failed for another reason
	// neverStarted: with the lock taken, the run is still queued with no
	// event at all (a shim writes run.started before starting the agent).
	neverStarted bool
}

// decideCheck is what to do about it: an ended run is done; a held lock
// (or one that could not be tried) is a live shim; a free lock on a run
// no shim ever served is started again, not interrupted (a free lock looks
// held for a moment while a child forked mid-probe still shares it); any
// other free lock is a dead shim, to fence.
func decideCheck(f checkFacts) verdict {
	switch {
	case f.terminal:
		return runEnded
	case f.lockHeld, f.lockErr:
		return shimLive
	case f.neverStarted:
		return notStarted
	}
	return shimDead
}
