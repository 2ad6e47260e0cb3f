package history_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// firstTurnOnly keeps only the first exchange of the recorded conversation,
// per database format: what the file held before the agent went on.
var firstTurnOnly = map[string][]string{
	"opencode": {
		`DELETE FROM part WHERE message_id IN (SELECT id FROM message WHERE time_created >
			(SELECT time_created FROM message WHERE data LIKE '%"finish":"stop"%' ORDER BY time_created LIMIT 1))`,
		`DELETE FROM message WHERE time_created > (SELECT time_created FROM message WHERE data LIKE '%"finish":"stop"%' ORDER BY time_created LIMIT 1)`,
	},
	"hermes": {`DELETE FROM messages WHERE id > (SELECT min(id) FROM messages WHERE role = 'assistant')`},
}

// copyDatabase copies a format's recorded database into a temp root and
// runs sql on the copy.
func copyDatabase(t *testing.T, f history.Format, sqls []string) (root, ref string) {
	t.Helper()
	root = copyTree(t, recorded(f))
	ref = discoverOne(t, f, root)
	file, _, _ := strings.Cut(ref, "#")
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range sqls {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return root, ref
}

// TestImportGrowingDatabase: a conversation in a database that grows gets
// its new turns appended to the same session; importing again adds nothing.
func TestImportGrowingDatabase(t *testing.T) {
	ctx := context.Background()
	for _, f := range history.Formats() {
		if _, ok := f.(history.Database); !ok {
			continue
		}
		t.Run(f.Agent(), func(t *testing.T) {
			j := openJournal(t)
			_, ref := copyDatabase(t, f, firstTurnOnly[f.Agent()])
			im, err := history.ImportFile(ctx, j, f, ref, time.Now())
			if err != nil || !im.Created || im.Added != 1 {
				t.Fatalf("first turn: %+v %v", im, err)
			}
			file, _, _ := strings.Cut(ref, "#")
			full, err := os.ReadFile(filepath.Join(recorded(f), filepath.Base(file)))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, full, 0o644); err != nil {
				t.Fatal(err)
			}
			im2, err := history.ImportFile(ctx, j, f, ref, time.Now())
			if err != nil || im2.Created || im2.Added != 2 || im2.Session.ID != im.Session.ID {
				t.Fatalf("grown: %+v %v", im2, err)
			}
			im3, err := history.ImportFile(ctx, j, f, ref, time.Now())
			if err != nil || im3.Added != 0 {
				t.Fatalf("again: %+v %v", im3, err)
			}
		})
	}
}

// TestMirrorDatabase: the mirror watches a database format's folder (its
// file and WAL) and reads its conversations again when it is written.
func TestMirrorDatabase(t *testing.T) {
	ctx := context.Background()
	for _, f := range history.Formats() {
		if _, ok := f.(history.Database); !ok {
			continue
		}
		t.Run(f.Agent(), func(t *testing.T) {
			j := openJournal(t)
			root, ref := copyDatabase(t, f, firstTurnOnly[f.Agent()])
			if _, err := history.ImportFile(ctx, j, f, ref, time.Now()); err != nil {
				t.Fatal(err)
			}
			got := make(chan history.Imported, 16)
			m, err := history.Watch(f, root, func(f history.Format, p string) {
				im, err := history.ImportFile(ctx, j, f, p, time.Now())
				if err == nil {
					got <- im
				}
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			file, _, _ := strings.Cut(ref, "#")
			full, _ := os.ReadFile(filepath.Join(recorded(f), filepath.Base(file)))
			if err := os.WriteFile(file, full, 0o644); err != nil {
				t.Fatal(err)
			}
			timeout := time.After(10 * time.Second)
			for {
				select {
				case im := <-got:
					if im.Added == 2 {
						return
					}
				case <-timeout:
					t.Fatal("the mirror did not read the grown database")
				}
			}
		})
	}
}
