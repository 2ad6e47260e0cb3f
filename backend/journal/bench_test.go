package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Benchmarks print figures (events/s, ms, bytes) with b.ReportMetric.
// `make bench` runs the quick ones; HERMESDESK_BIG_BENCH=1 adds the
// 1M-event database ones:
//
//	go test -tags sqlite_fts5,webkit2_41 -run '^$' -bench . -benchtime 1x ./backend/journal/
//	HERMESDESK_BIG_BENCH=1 go test -tags sqlite_fts5,webkit2_41 -run '^$' -bench 'Replay|Size' -benchtime 1x ./backend/journal/

func bigBench(b *testing.B) {
	if os.Getenv("HERMESDESK_BIG_BENCH") == "" {
		b.Skip("set HERMESDESK_BIG_BENCH=1 for the 1M-event benchmarks")
	}
}

var payloadJSON, _ = json.Marshal(payload120)

// BenchmarkBareBatchedInsert is the baseline: go-sqlite3 alone, same
// table shape, WAL + synchronous=FULL, 1000 rows per transaction, one
// prepared INSERT per transaction.
func BenchmarkBareBatchedInsert(b *testing.B) {
	db := bareDB(b, filepath.Join(b.TempDir(), "bare.db"))
	b.ResetTimer()
	bareInsert(b, db, "run_bare", 1, b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func bareDB(b testing.TB, path string) *sql.DB {
	db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=10000")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
		created_at REAL NOT NULL, payload BLOB NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID`); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func bareInsert(b testing.TB, db *sql.DB, runID string, from, n int) {
	for i := 0; i < n; {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		st, err := tx.Prepare(`INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 1000 && i < n; j, i = j+1, i+1 {
			if _, err := st.Exec(runID, from+i, "token.delta", float64(time.Now().UnixNano())/1e9, payloadJSON); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	for _, runs := range []int{1, 4} {
		b.Run(fmt.Sprintf("runs=%d", runs), func(b *testing.B) {
			s := openTest(b, Options{})
			f := newFixture(b, s)
			ws := make([]*Writer, runs)
			for i := range ws {
				ws[i] = f.writer(b, f.submit(b, "go", "").Run.ID)
			}
			b.ResetTimer()
			var wg sync.WaitGroup
			for _, w := range ws {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < b.N/runs; i++ {
						if _, err := w.Append(run.EventTokenDelta, payload120); err != nil {
							b.Error(err)
							return
						}
					}
					if err := w.Flush(context.Background()); err != nil {
						b.Error(err)
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N/runs*runs)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkAppendProcs: 4 writer processes on one database, each appending
// 25k events to its own run. events/s = all events / slowest process.
func BenchmarkAppendProcs(b *testing.B) {
	const procs, n = 4, 25000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "j.db")
		s, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		f := newFixture(b, s)
		s.Close()
		b.StartTimer()
		_, slowest := runWriterProcs(b, path, f.ses.ID, procs, n)
		b.ReportMetric(float64(procs*n)/slowest.Seconds(), "events/s")
	}
}

// BenchmarkBareProcs is the multi-process baseline: 4 goroutines with their
// own connections doing bare batched inserts into one WAL file (lock
// contention as between processes, without process start-up).
func BenchmarkBareProcs(b *testing.B) {
	const procs, n = 4, 25000
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "bare.db")
		bareDB(b, path)
		start := time.Now()
		var wg sync.WaitGroup
		for p := 0; p < procs; p++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db := bareDB(b, path)
				bareInsertImmediate(b, db, fmt.Sprintf("run_%d", p), n)
			}()
		}
		wg.Wait()
		b.ReportMetric(float64(procs*n)/time.Since(start).Seconds(), "events/s")
	}
}

func bareInsertImmediate(b testing.TB, db *sql.DB, runID string, n int) {
	conn, err := db.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	for i := 0; i < n; {
		if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			b.Fatal(err)
		}
		st, err := conn.PrepareContext(ctx, `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 1000 && i < n; j, i = j+1, i+1 {
			if _, err := st.Exec(runID, i+1, "token.delta", 0.0, payloadJSON); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
		if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLatency offers 10k events/s (10 every millisecond) for 2 s and
// reports produced→committed latency percentiles.
func BenchmarkLatency(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var mu sync.Mutex
		var produced []time.Time
		var lat []time.Duration
		s := openTest(b, Options{OnCommit: func(evs []run.Event) {
			now := time.Now()
			mu.Lock()
			for _, ev := range evs {
				lat = append(lat, now.Sub(produced[ev.Seq-1]))
			}
			mu.Unlock()
		}})
		f := newFixture(b, s)
		w := f.writer(b, f.sub.Run.ID)
		const total = 20000
		produced = make([]time.Time, total+1)
		tick := time.NewTicker(time.Millisecond)
		start := time.Now()
		for n := 0; n < total; {
			<-tick.C
			// Catch up to the schedule if a tick was late.
			due := min(total, int(time.Since(start)/time.Millisecond+1)*10)
			for ; n < due; n++ {
				mu.Lock()
				produced[n] = time.Now()
				mu.Unlock()
				if _, err := w.Append(run.EventTokenDelta, payload120); err != nil {
					b.Fatal(err)
				}
			}
		}
		tick.Stop()
		w.Flush(context.Background())
		mu.Lock()
		slices.Sort(lat)
		b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), "p99_ms")
		b.ReportMetric(ms(lat[len(lat)-1]), "max_ms")
		b.ReportMetric(float64(total)/time.Since(start).Seconds(), "offered_events/s")
		mu.Unlock()
	}
}

// BenchmarkBareLatency is the latency baseline: the same 10k events/s
// offered to one goroutine that drains a channel into bare batched
// transactions (WAL, FULL), with no journal code in between.
func BenchmarkBareLatency(b *testing.B) {
	for i := 0; i < b.N; i++ {
		db := bareDB(b, filepath.Join(b.TempDir(), "bare.db"))
		const total = 20000
		q := make(chan time.Time, 8192)
		var lat []time.Duration
		done := make(chan struct{})
		go func() {
			defer close(done)
			batch := make([]time.Time, 0, 1000)
			seq := 0
			for t0 := range q {
				batch = append(batch[:0], t0)
			drain:
				for len(batch) < 1000 {
					select {
					case t1, ok := <-q:
						if !ok {
							break drain
						}
						batch = append(batch, t1)
					default:
						break drain
					}
				}
				tx, _ := db.Begin()
				st, _ := tx.Prepare(`INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`)
				for range batch {
					seq++
					st.Exec("run_bare", seq, "token.delta", 0.0, payloadJSON)
				}
				st.Close()
				if err := tx.Commit(); err != nil {
					b.Error(err)
				}
				now := time.Now()
				for _, t1 := range batch {
					lat = append(lat, now.Sub(t1))
				}
			}
		}()
		tick := time.NewTicker(time.Millisecond)
		start := time.Now()
		for n := 0; n < total; {
			<-tick.C
			due := min(total, int(time.Since(start)/time.Millisecond+1)*10)
			for ; n < due; n++ {
				q <- time.Now()
			}
		}
		tick.Stop()
		close(q)
		<-done
		slices.Sort(lat)
		b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), "p99_ms")
		b.ReportMetric(ms(lat[len(lat)-1]), "max_ms")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// replayDB builds (once per process) a journal with totalRuns runs of
// perRun events each, written directly for speed.
func replayDB(b *testing.B, totalRuns, perRun int) (*Store, string) {
	b.Helper()
	s := openTest(b, Options{})
	f := newFixture(b, s)
	var target string
	for r := 0; r < totalRuns; r++ {
		sub := f.submit(b, "go", "")
		if r == totalRuns/2 {
			target = sub.Run.ID
		}
		tx, err := s.DB().Begin()
		if err != nil {
			b.Fatal(err)
		}
		st, _ := tx.Prepare(`INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, 'token.delta', 0, ?)`)
		for i := 1; i <= perRun; i++ {
			if _, err := st.Exec(sub.Run.ID, i, payloadJSON); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
		tx.Exec(`UPDATE runs SET last_seq = ? WHERE id = ?`, perRun, sub.Run.ID)
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	s.DB().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return s, target
}

func benchReplay(b *testing.B, totalRuns, perRun int) {
	s, target := replayDB(b, totalRuns, perRun)
	ctx := context.Background()
	b.Run("stream_all", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n := 0
			if err := s.StreamEvents(ctx, target, 0, func(run.Event) error { n++; return nil }); err != nil || n != perRun {
				b.Fatalf("%d events, %v", n, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/replay")
	})
	b.Run("bare_stream_all", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			rows, err := s.DB().Query(`SELECT seq, type, created_at, payload FROM events WHERE run_id = ? AND seq > 0 ORDER BY seq`, target)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var seq int64
				var t string
				var at float64
				var p []byte
				rows.Scan(&seq, &t, &at, &p)
				n++
			}
			rows.Close()
			if n != perRun {
				b.Fatalf("%d rows", n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/replay")
	})
	b.Run("last_100_after_cursor", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			evs, err := s.Events(ctx, target, int64(perRun-100), 100)
			if err != nil || len(evs) != 100 {
				b.Fatalf("%d events, %v", len(evs), err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/page")
	})
	b.Run("size", func(b *testing.B) {
		var pages, pageSize int64
		s.DB().QueryRow(`PRAGMA page_count`).Scan(&pages)
		s.DB().QueryRow(`PRAGMA page_size`).Scan(&pageSize)
		total := float64(totalRuns * perRun)
		b.ReportMetric(float64(pages*pageSize)/total*1e6/(1<<20), "MiB/1M_events")
	})
}

// BenchmarkReplay: a 10k-event run in a 100k-event database.
func BenchmarkReplay(b *testing.B) { benchReplay(b, 10, 10000) }

// BenchmarkReplayBig: a 100k-event run in a 1M-event database (opt-in).
func BenchmarkReplayBig(b *testing.B) {
	bigBench(b)
	benchReplay(b, 10, 100000)
}

// BenchmarkRatio alternates the bare loop and the journal (1 and 4 runs)
// in rounds of 50k events, so load from other processes on a shared
// machine hits both alike; it reports the median rates and their ratio.
func BenchmarkRatio(b *testing.B) {
	const rounds, n = 5, 50000
	for i := 0; i < b.N; i++ {
		var bare, one, four []float64
		for r := 0; r < rounds; r++ {
			db := bareDB(b, filepath.Join(b.TempDir(), "bare.db"))
			start := time.Now()
			bareInsert(b, db, "run_bare", 1, n)
			bare = append(bare, n/time.Since(start).Seconds())
			for _, runs := range []int{1, 4} {
				s := openTest(b, Options{})
				f := newFixture(b, s)
				ws := make([]*Writer, runs)
				for i := range ws {
					ws[i] = f.writer(b, f.submit(b, "go", "").Run.ID)
				}
				start := time.Now()
				var wg sync.WaitGroup
				for _, w := range ws {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for j := 0; j < n/runs; j++ {
							w.Append(run.EventTokenDelta, payload120)
						}
						w.Flush(context.Background())
					}()
				}
				wg.Wait()
				rate := n / time.Since(start).Seconds()
				if runs == 1 {
					one = append(one, rate)
				} else {
					four = append(four, rate)
				}
				s.Close()
			}
		}
		med := func(xs []float64) float64 { slices.Sort(xs); return xs[len(xs)/2] }
		mb, m1, m4 := med(bare), med(one), med(four)
		b.ReportMetric(mb, "bare_events/s")
		b.ReportMetric(m1, "runs1_events/s")
		b.ReportMetric(m4, "runs4_events/s")
		b.ReportMetric(m1/mb, "ratio1")
		b.ReportMetric(m4/mb, "ratio4")
	}
}

// BenchmarkToolHeavyRun: a run of many tool calls, each with a little
// streamed output. Indexing a finished call walks back only over that
// call's own span, so the cost per call stays flat as the run grows.
func BenchmarkToolHeavyRun(b *testing.B) {
	const calls = 3000
	for i := 0; i < b.N; i++ {
		s := openTest(b, Options{})
		f := newFixture(b, s)
		w := f.writer(b, f.sub.Run.ID)
		start := time.Now()
		for c := 0; c < calls; c++ {
			id := fmt.Sprintf("t%d", c)
			w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: id, Name: "bash", Input: map[string]string{"command": "ls"}})
			w.Append(run.EventToolUpdated, run.ToolUpdated{ToolCallID: id, Output: "a.txt\n"})
			w.Append(run.EventToolDone, run.ToolDone{ToolCallID: id, Status: "completed"})
		}
		if err := w.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(calls)/time.Since(start).Seconds(), "tool_calls/s")
	}
}
