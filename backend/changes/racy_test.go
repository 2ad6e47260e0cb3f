package changes

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// Git's "racy git" guard: an index entry whose mtime is not older than the
// index file itself may hide an edit made in the same second, so git
// re-reads such a file instead of trusting its stat. The snapshot's copy of
// the index must keep the index's mtime, or the guard is lost and a
// same-size edit in that second is missed (docs/ARCHITECTURE.md §Events,
// "file.changed"). The test pins the timestamps: the file and the index
// written at the same instant T, then the file rewritten (same size) with
// its mtime left at T. core.trustctime=false, because a test cannot set a
// ctime; with git's default the ctime is compared in whole seconds, which
// is the same race whenever the edit falls in the index's second.
func TestASameSizeEditInTheIndexsSecondIsSnapshotted(t *testing.T) {
	gitcmdtest.Need(t)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, ws, shadow string) (s *Snapshots, index string)
	}{
		{"git work tree", func(t *testing.T, ws, _ string) (*Snapshots, string) {
			gitRun(t, ws, "init", "-q")
			gitRun(t, ws, "config", "core.trustctime", "false")
			gitRun(t, ws, "add", "a.txt")
			return open(t, ws), filepath.Join(ws, ".git", "index")
		}},
		{"plain folder (shadow repository)", func(t *testing.T, ws, shadow string) (*Snapshots, string) {
			s, err := OpenWith(context.Background(), ws, Options{ShadowGitDir: shadow})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			gitRun(t, shadow, "config", "core.trustctime", "false")
			return s, filepath.Join(shadow, "index")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, shadow := t.TempDir(), filepath.Join(t.TempDir(), "shadow.git")
			at := time.Now().Add(-time.Minute).Truncate(time.Second)
			a := filepath.Join(ws, "a.txt")
			gitcmdtest.Write(t, a, "one\n")
			setMTime(t, a, at)
			s, index := tc.setup(t, ws, shadow)
			first := snap(t, s)    // a shadow index now holds a.txt's stat too
			setMTime(t, index, at) // the index written in the file's second
			gitcmdtest.Write(t, a, "two\n")
			setMTime(t, a, at)
			second := snap(t, s)
			if first.Tree == second.Tree {
				t.Fatalf("a same-size edit with the same mtime was not snapshotted (tree %s both times)", first.Tree)
			}
			if got := between(t, s, first, second); got["a.txt"].Action != "modified" {
				t.Errorf("changes = %+v, want a.txt modified", got)
			}
		})
	}
}

func setMTime(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}
