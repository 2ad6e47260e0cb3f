//go:build unix

package schedule

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// BenchmarkIdle50 is the scheduler's idle cost: 50 enabled schedules (the
// earliest due over a minute away), the real clock, a few seconds of
// sleep. It prints the process's CPU time (getrusage) over the window and
// the loop's wake-ups, which must be none: it sleeps until the next due
// time (or the SanityWake cap), it does not poll.
//
//	go test -run ^$ -bench Idle50 ./backend/schedule/
func BenchmarkIdle50(b *testing.B) {
	now := time.Now()
	st := &memStore{scheds: map[string]Schedule{}}
	for i := range 50 {
		// Daily at times spread over the day, all at least 2 minutes away.
		at := now.Add(time.Duration(2+i*25) * time.Minute)
		st.scheds[fmt.Sprint("s", i)] = Schedule{ID: fmt.Sprint("s", i), Cron: fmt.Sprintf("%d %d * * *", at.Minute(), at.Hour()),
			Timezone: "Local", Enabled: true, Missed: MissedRunOnce, Cursor: now}
	}
	s := New(Config{Store: st, Starter: &fakeStarter{runs: map[string]string{}, active: map[string]bool{}}})
	s.Start(context.Background())
	defer s.Close()
	const window = 3 * time.Second
	for range b.N {
		time.Sleep(50 * time.Millisecond) // the first tick (loading the list) is start-up, not idle
		w0 := s.Stats().Wakes
		c0 := cpu()
		time.Sleep(window)
		used := cpu() - c0
		wakes := s.Stats().Wakes - w0
		b.ReportMetric(float64(used.Microseconds())/window.Seconds(), "cpu-µs/s")
		b.ReportMetric(float64(wakes), "wakes")
		fmt.Printf("scheduler idle with 50 schedules: %v CPU over %v (%.4f%% of a core), %d wake-ups, next due %s\n",
			used, window, 100*used.Seconds()/window.Seconds(), wakes, s.Stats().NextDue.Sub(time.Now()).Round(time.Second))
		if wakes != 0 {
			b.Errorf("%d wake-ups while nothing was due: the loop polls", wakes)
		}
	}
}

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
