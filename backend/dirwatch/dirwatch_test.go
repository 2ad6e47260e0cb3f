package dirwatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitGone fails the test unless gone closes; the bound only stops a broken
// watch from hanging the suite.
func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(20 * time.Second):
		t.Fatal("the watch never said the directory was gone")
	}
}

func TestGone(t *testing.T) {
	cases := []struct {
		name   string
		remove func(t *testing.T, dir string)
	}{
		{"removed with its files", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"moved away", func(t *testing.T, dir string) {
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Fatal(err)
			}
		}},
		// A shim runs from a program file inside its data dir: an open file
		// pins the directory, and its own IN_DELETE_SELF waits for that.
		{"removed while a file inside is open", func(t *testing.T, dir string) {
			f, err := os.Open(filepath.Join(dir, "journal.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"parent removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Dir(dir)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "parent", "data")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "journal.db"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			gone, stop, err := Gone(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			// Writes inside the directory are not its going away.
			for i := range 50 {
				os.WriteFile(filepath.Join(dir, "f"), []byte{byte(i)}, 0o600)
			}
			select {
			case <-gone:
				t.Fatal("gone while the directory is still there")
			default:
			}
			c.remove(t, dir)
			waitGone(t, gone)
		})
	}
}

func TestGoneMissingDirIsAnError(t *testing.T) {
	if _, _, err := Gone(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("a missing directory gave a watch")
	}
}

// Stop ends the watch: nothing is reported for a removal after it.
func TestGoneStop(t *testing.T) {
	dir := t.TempDir()
	gone, stop, err := Gone(dir)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	stop() // twice is fine
	os.RemoveAll(dir)
	select {
	case <-gone:
		t.Fatal("reported after stop")
	case <-time.After(200 * time.Millisecond):
	}
}

// A file written atomically (temp + rename) or closed after writing is an
// arrival; the waiter then reads it.
func TestChanges(t *testing.T) {
	dir := t.TempDir()
	arrived, stop, err := Changes(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	tmp := filepath.Join(dir, ".bootstrap.json.123")
	if err := os.WriteFile(tmp, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	<-arrived // the temp file closed after writing
	if err := os.Rename(tmp, filepath.Join(dir, "bootstrap.json")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("a rename into the directory was not an arrival")
	}
	if _, _, err := Changes(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory gave a watch")
	}
}

// Without an inotify instance (the user's limit used up), the watches
// still work: they look instead.
func TestWithoutInotify(t *testing.T) {
	if !inotifyAvailable() {
		t.Skip("inotify is not used on this platform")
	}
	restore := noInotify()
	defer restore()
	dir := filepath.Join(t.TempDir(), "data")
	os.MkdirAll(dir, 0o700)
	changed, stopChanges, err := Changes(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stopChanges()
	os.WriteFile(filepath.Join(dir, "bootstrap.json"), []byte("{}"), 0o600)
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no change signalled without inotify")
	}
	gone, stopGone, err := Gone(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stopGone()
	os.RemoveAll(dir)
	waitGone(t, gone)
}
