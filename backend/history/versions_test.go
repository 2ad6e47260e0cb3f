package history_test

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// TestDatabaseVersions: a conversation's version moves when the agent adds
// to it (so the mirror reads it again) and stays when the agent writes
// something else to its database (so the mirror leaves it alone).
func TestDatabaseVersions(t *testing.T) {
	for _, tc := range []struct {
		f              history.Database
		unrelated, add []string
	}{
		{history.OpenCode{},
			[]string{`DELETE FROM event`},
			[]string{`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) SELECT 'prt_new', message_id, session_id,
				time_created, time_updated + 1, '{"type":"text","text":"more"}' FROM part ORDER BY time_updated DESC LIMIT 1`}},
		{history.Hermes{},
			[]string{`INSERT OR REPLACE INTO state_meta (key, value) VALUES ('x', 'y')`},
			hermesCompressed},
	} {
		t.Run(tc.f.Agent(), func(t *testing.T) {
			root, ref := copyDatabase(t, tc.f, nil)
			file, _, _ := strings.Cut(ref, "#")
			v0, err := tc.f.Versions(root)
			if err != nil || len(v0) != 1 || v0[ref] == "" {
				t.Fatalf("versions %v %v", v0, err)
			}
			exec := func(qs []string) {
				db, err := sql.Open("sqlite3", file)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				for _, q := range qs {
					if _, err := db.Exec(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			}
			exec(tc.unrelated)
			if v1, _ := tc.f.Versions(root); v1[ref] != v0[ref] {
				t.Fatalf("an unrelated write moved the version: %q → %q", v0[ref], v1[ref])
			}
			exec(tc.add)
			v2, _ := tc.f.Versions(root)
			if v2[ref] == v0[ref] || len(v2) != 1 {
				t.Fatalf("the conversation grew, versions %v → %v", v0, v2)
			}
			if _, err := tc.f.Versions(filepath.Join(root, "none")); err != nil {
				t.Fatalf("a missing database: %v", err)
			}
		})
	}
}
