package park

import "time"

// Run is a parked run as Due sees it.
type Run struct {
	ID     string
	Vendor string // whose quota it waits for (the run's agent)
	// ResumesAt is when it resumes by itself (zero: unknown, at once).
	ResumesAt time.Time
}

// Due says which parked runs resume now and when to look again (zero: no
// parked run left to wait for). When one run of a vendor is due, every
// parked run of that vendor is: the reset is the vendor's, not the run's.
// now asks to resume the named runs at once (the person's "Resume now").
// Which of them start, oldest first within the concurrency limit, is the
// scheduler's queue plan.
func Due(runs []Run, now time.Time, resumeNow map[string]bool) (due map[string]bool, wake time.Time) {
	due = map[string]bool{}
	vendorDue := map[string]bool{}
	for _, r := range runs {
		if !r.ResumesAt.After(now) {
			vendorDue[r.Vendor] = true
		}
	}
	for _, r := range runs {
		if vendorDue[r.Vendor] || resumeNow[r.ID] {
			due[r.ID] = true
			continue
		}
		if wake.IsZero() || r.ResumesAt.Before(wake) {
			wake = r.ResumesAt
		}
	}
	return due, wake
}
