package journal

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The test binary doubles as the child process of the crash and
// multi-process tests (and benchmarks): the parent re-executes it with
// envChild set.
const (
	envChild   = "HERMESDESK_JOURNAL_TEST_CHILD"
	envDB      = "HERMESDESK_JOURNAL_TEST_DB"
	envRun     = "HERMESDESK_JOURNAL_TEST_RUN"
	envSession = "HERMESDESK_JOURNAL_TEST_SESSION"
	envCount   = "HERMESDESK_JOURNAL_TEST_COUNT"
)

func TestMain(m *testing.M) {
	switch os.Getenv(envChild) {
	case "":
		os.Exit(m.Run())
	case "crash":
		childCrash()
	case "writer":
		childWriter()
	default:
		fmt.Fprintln(os.Stderr, "unknown child mode")
		os.Exit(2)
	}
}

// payload120 is a token delta of about 120 bytes encoded.
var payload120 = run.TextDelta{Text: strings.Repeat("lorem ipsum ", 9)}

// childCrash appends to one run as fast as it can until it is killed,
// printing the highest seq it was told is committed after every commit.
func childCrash() {
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	runID := os.Getenv(envRun)
	s, err := Open(os.Getenv(envDB), Options{OnCommit: func(evs []run.Event) {
		var last int64
		for _, ev := range evs {
			if ev.RunID == runID && ev.Seq > last {
				last = ev.Seq
			}
		}
		mu.Lock()
		fmt.Fprintln(out, last)
		out.Flush()
		mu.Unlock()
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w, err := s.OpenWriter(context.Background(), runID)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		if i%97 == 0 {
			_, err = w.AppendSync(context.Background(), run.EventProgress, run.Progress{Message: "sync"})
		} else {
			_, err = w.Append(run.EventTokenDelta, payload120)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// childWriter submits its own run in a shared session, appends N events
// and its done, then prints the run id and its throughput.
func childWriter() {
	n, _ := strconv.Atoi(os.Getenv(envCount))
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(1)
	}
	s, err := Open(os.Getenv(envDB), Options{})
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	sub, err := s.Submit(ctx, run.SubmitRequest{SessionID: os.Getenv(envSession), Message: "go", ClientRequestID: newID("req_")})
	if err != nil {
		fail(err)
	}
	w, err := s.OpenWriter(ctx, sub.Run.ID)
	if err != nil {
		fail(err)
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		if _, err := w.Append(run.EventTokenDelta, payload120); err != nil {
			fail(err)
		}
	}
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		fail(err)
	}
	el := time.Since(start)
	if err := s.Close(); err != nil {
		fail(err)
	}
	fmt.Printf("%s %d\n", sub.Run.ID, el.Nanoseconds())
	os.Exit(0)
}

func childCmd(t testing.TB, mode string, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{envChild + "=" + mode}, env...)...)
	return cmd
}

func TestCrashLosesNothingCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := newFixture(t, s)
	ctx := ctxT(t)
	trials := 20
	var total int64
	for trial := 0; trial < trials; trial++ {
		sub := f.submit(t, fmt.Sprintf("trial %d", trial), "")
		cmd := childCmd(t, "crash", envDB+"="+path, envRun+"="+sub.Run.ID)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killed := false
		t.Cleanup(func() {
			if !killed {
				cmd.Process.Kill()
				cmd.Wait()
			}
		})
		var reported atomic.Int64
		first := make(chan struct{})
		readDone := make(chan struct{})
		go func() {
			defer close(readDone)
			sc := bufio.NewScanner(stdout)
			once := sync.Once{}
			for sc.Scan() {
				n, err := strconv.ParseInt(sc.Text(), 10, 64)
				if err == nil && n > reported.Load() {
					reported.Store(n)
				}
				once.Do(func() { close(first) })
			}
		}()
		select {
		case <-first:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("child never committed: %s", stderr.String())
		}
		time.Sleep(time.Duration(5+rand.IntN(300)) * time.Millisecond)
		cmd.Process.Kill() // SIGKILL: no deferred flush, no Close
		<-readDone
		cmd.Wait()
		killed = true
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("child error: %s", stderr.String())
		}

		r := s2check(t, path, sub.Run.ID)
		if r < reported.Load() {
			t.Fatalf("trial %d: child was told seq %d committed, journal has %d", trial, reported.Load(), r)
		}
		total += r
		// Recovery closes the dead run; seqs stay gapless.
		if written, err := s.InterruptRun(ctx, sub.Run.ID, "killed", ""); err != nil || !written {
			t.Fatalf("InterruptRun: %v %v", written, err)
		}
		checkGapless(t, s, sub.Run.ID)
	}
	t.Logf("%d trials, %d events committed before SIGKILL", trials, total)
}

// s2check reopens the database as a fresh process would and returns the
// run's last seq after checking gaplessness and integrity.
func s2check(t *testing.T, path, runID string) int64 {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ok string
	if err := s.DB().QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	evs := checkGapless(t, s, runID)
	r, _ := s.GetRun(context.Background(), runID)
	if r.LastSeq != int64(len(evs)) {
		t.Fatalf("runs.last_seq %d, events %d", r.LastSeq, len(evs))
	}
	return int64(len(evs))
}

func TestMultiProcessWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := newFixture(t, s)
	const procs, n = 4, 3000
	runIDs, _ := runWriterProcs(t, path, f.ses.ID, procs, n)
	for _, id := range runIDs {
		evs := checkGapless(t, s, id)
		if len(evs) != n+1 || !evs[n].Terminal {
			t.Fatalf("run %s: %d events", id, len(evs))
		}
	}
	var ok string
	s.DB().QueryRow("PRAGMA integrity_check").Scan(&ok)
	if ok != "ok" {
		t.Fatalf("integrity: %s", ok)
	}
}

// runWriterProcs starts procs writer children at once and returns their
// run ids and the slowest child's append time.
func runWriterProcs(t testing.TB, path, sessionID string, procs, n int) ([]string, time.Duration) {
	t.Helper()
	type result struct {
		runID string
		el    time.Duration
		err   error
	}
	results := make(chan result, procs)
	for i := 0; i < procs; i++ {
		cmd := childCmd(t, "writer", envDB+"="+path, envSession+"="+sessionID, envCount+"="+strconv.Itoa(n))
		go func() {
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				results <- result{err: fmt.Errorf("%v: %s", err, stderr.String())}
				return
			}
			var id string
			var ns int64
			fmt.Sscan(string(out), &id, &ns)
			results <- result{runID: id, el: time.Duration(ns)}
		}()
	}
	var ids []string
	var slowest time.Duration
	for i := 0; i < procs; i++ {
		r := <-results
		if r.err != nil {
			t.Fatalf("writer process: %v", r.err)
		}
		ids = append(ids, r.runID)
		slowest = max(slowest, r.el)
	}
	return ids, slowest
}
