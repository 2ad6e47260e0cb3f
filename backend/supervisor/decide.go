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
	// due: parked runs whose quota reset has come, or that the person
	// resumed (park.Due; docs/ARCHITECTURE.md §Usage, parked runs).
	due map[string]bool
}

// queuePlan says which queued runs to launch now and which lost their start
// request (they end interrupted).
type queuePlan struct {
	launch []run.Run
	lost   []string
}

// planQueue: at most one active run per session, at most max running
// overall, oldest first. A queued run whose spec is missing lost its start
// request — unless a Start is writing one right now, then it waits. A
// parked run takes no slot but holds its session (what was queued behind
// it waits for its answer); once due it starts like a queued run, in its
// place by age.
func planQueue(f queueFacts) queuePlan {
	var p queuePlan
	busy := map[string]bool{}
	n := 0
	waiting := func(r run.Run) bool {
		return !f.tracked[r.ID] && (r.Status == run.StatusQueued || r.Status == run.StatusParked)
	}
	for _, r := range f.runs {
		if !waiting(r) {
			busy[r.SessionID] = true
			n++
		}
	}
	for _, r := range f.runs {
		if !waiting(r) {
			continue
		}
		if busy[r.SessionID] {
			continue
		}
		if r.Status == run.StatusParked {
			busy[r.SessionID] = true // launched or still waiting, it holds its session
			if !f.due[r.ID] {
				continue
			}
		}
		if n >= f.max {
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
	// parked: with the lock taken, the run is parked — its shim ended it
	// so on purpose, to wait for its quota.
	parked bool
}

// decideCheck is what to do about it: an ended run is done; a held lock
// (or one that could not be tried) is a live shim; a free lock on a run
// no shim ever served is started again, not interrupted (a free lock looks
// held for a moment while a child forked mid-probe still shares it); any
// other free lock is a dead shim, to fence — unless its run is parked,
// then it waits for its reset (no shim serves it meanwhile).
func decideCheck(f checkFacts) verdict {
	switch {
	case f.terminal:
		return runEnded
	case f.lockHeld, f.lockErr:
		return shimLive
	case f.neverStarted:
		return notStarted
	case f.parked:
		return runParked
	}
	return shimDead
}
