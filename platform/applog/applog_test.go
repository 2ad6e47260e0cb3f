package applog

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestRotationKeepsBoundedHistory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.log")
	f, err := Open(path, 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := []byte(strings.Repeat("a", 39) + "\n") // 40 bytes: two fit in 100
	for i := 0; i < 20; i++ {
		if _, err := f.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := filepath.Glob(path + "*")
	if len(names) != 3 {
		t.Fatalf("files = %v, want x.log, x.log.1, x.log.2", names)
	}
	for _, n := range names {
		st, _ := os.Stat(n)
		if st.Size() > 100 || st.Size()%40 != 0 {
			t.Errorf("%s: size %d (records split or limit passed)", n, st.Size())
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", n, st.Mode())
		}
	}
}

func TestReopenAppendsAndCountsExistingSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	os.WriteFile(path, bytes.Repeat([]byte("b"), 90), 0o600)
	f, _ := Open(path, 100, 1)
	f.Write([]byte("0123456789ab")) // would pass 100: rotates first
	f.Close()
	if got, _ := os.ReadFile(path); string(got) != "0123456789ab" {
		t.Errorf("current = %q", got)
	}
	if old, _ := os.ReadFile(path + ".1"); len(old) != 90 {
		t.Errorf("old = %d bytes", len(old))
	}
}

func TestKeepZeroTruncates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	f, _ := Open(path, 10, 0)
	f.Write([]byte("12345678"))
	f.Write([]byte("abcdefgh"))
	f.Close()
	names, _ := filepath.Glob(path + "*")
	if got, _ := os.ReadFile(path); string(got) != "abcdefgh" || len(names) != 1 {
		t.Errorf("got %q, files %v", got, names)
	}
}

func TestWriteAfterCloseAndBadArgs(t *testing.T) {
	f, _ := Open(filepath.Join(t.TempDir(), "x.log"), 10, 1)
	f.Close()
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("write after close succeeded")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "y.log"), 0, 1); err == nil {
		t.Error("zero size accepted")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, _, err := NewNamed(filepath.Join(file, "logs"), FileName, slog.LevelInfo, nil); err == nil {
		t.Error("log dir under a file accepted")
	}
}

func TestConcurrentWritersNeverInterleave(t *testing.T) {
	dir := t.TempDir()
	log, c, err := NewNamed(dir, FileName, slog.LevelInfo, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				log.Info("tick", "g", g, "i", i)
			}
		}()
	}
	wg.Wait()
	c.Close()
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if !strings.HasPrefix(l, "time=") || !strings.Contains(l, "msg=tick") {
			t.Fatalf("mangled line %q", l)
		}
	}
}
