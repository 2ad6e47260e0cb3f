package service_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// journalWorld is a service with opts over a real journal (closed with
// the test) and the in-memory runner.
func journalWorld(t *testing.T, opts service.Options) (*service.Service, *journal.Store) {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	m := servicetest.NewMem()
	opts.Log = quiet
	return service.New(j, m, m, opts), j
}

// uploadWorld is a service over a real journal with an uploads folder.
func uploadWorld(t *testing.T, quota int64) (*service.Service, *journal.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "uploads")
	s, j := journalWorld(t, service.Options{Uploads: dir, UploadsQuota: quota})
	return s, j, dir
}

func filesUnder(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// The uploads folder holds at most its quota: past it an upload is
// refused in plain words (413), sized or streamed, and leaves nothing
// behind (issue 21 item 13: 500 MB in 1.4 s).
func TestUploadsQuota(t *testing.T) {
	ctx := context.Background()
	s, _, dir := uploadWorld(t, 1<<20)
	if _, err := s.SaveUpload(ctx, "a.bin", 600<<10, strings.NewReader(strings.Repeat("a", 600<<10))); err != nil {
		t.Fatal(err)
	}
	full := func(err error) bool {
		var se *service.Error
		return errors.As(err, &se) && se.Code == service.CodeTooLarge && strings.Contains(se.Message, "uploads folder is full")
	}
	if _, err := s.SaveUpload(ctx, "b.bin", 600<<10, strings.NewReader(strings.Repeat("b", 600<<10))); !full(err) {
		t.Fatalf("a sized upload past the quota: %v", err)
	}
	if _, err := s.SaveUpload(ctx, "c.bin", -1, io.LimitReader(zeroReader{}, 600<<10)); !full(err) {
		t.Fatalf("a streamed upload past the quota: %v", err)
	}
	if n := filesUnder(dir); n != 1 {
		t.Fatalf("%d files under uploads, want only the first", n)
	}
	if _, err := s.SaveUpload(ctx, "d.bin", 100<<10, strings.NewReader(strings.Repeat("d", 100<<10))); err != nil {
		t.Fatalf("an upload that fits: %v", err)
	}
}

// An upload no message attaches is removed on the next upload once it is a
// day old; one a message attaches, or a young one, stays.
func TestUploadsSweptOnTheNextUpload(t *testing.T) {
	ctx := context.Background()
	s, j, dir := uploadWorld(t, 0)
	save := func(name string) string {
		up, err := s.SaveUpload(ctx, name, 4, strings.NewReader("data"))
		if err != nil {
			t.Fatal(err)
		}
		return up.Path
	}
	unused, used, young := save("unused.png"), save("used.png"), save("young.png")
	ws := t.TempDir()
	p, err := j.CreateProject(ctx, "p", ws)
	if err != nil {
		t.Fatal(err)
	}
	ses, err := j.CreateSession(ctx, run.Session{ProjectID: p.ID, Agent: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Submit(ctx, run.SubmitRequest{SessionID: ses.ID, Message: "look", Attachments: []string{used}}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-25 * time.Hour)
	for _, f := range []string{unused, used} {
		for _, x := range []string{f, filepath.Dir(f)} {
			if err := os.Chtimes(x, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	save("next.png")
	if _, err := os.Stat(filepath.Dir(unused)); !os.IsNotExist(err) {
		t.Fatalf("the day-old unused upload is still there: %v", err)
	}
	for _, f := range []string{used, young} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was removed: %v", filepath.Base(f), err)
		}
	}
	if n := filesUnder(dir); n != 3 {
		t.Fatalf("%d files left, want 3", n)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
