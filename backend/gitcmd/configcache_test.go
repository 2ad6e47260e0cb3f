//go:build unix

package gitcmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// settledClock makes every file look older than settleTime, so a reading
// is kept at once (the rule itself: TestSettled).
func settledClock(t *testing.T) {
	t.Helper()
	forgetConfigCache()
	old := now
	now = func() time.Time { return time.Now().Add(time.Minute) }
	t.Cleanup(func() { now = old; forgetConfigCache() })
}

// A key planted between two commands, wherever git would read it from, is
// overridden by the second: the cached reading is dropped when any file
// that decided it changed (docs/ARCHITECTURE.md §Security, "Git in a
// project").
func TestConfigCacheSeesAPlantedKey(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	const filter = "[filter \"late\"]\n\tclean = /bin/evil\n"
	cases := []struct {
		name string
		// setup makes the repository and returns the directory commands
		// run in; plant then adds filter.late.clean.
		setup func(t *testing.T, root string) string
		plant func(t *testing.T, root string)
	}{
		{
			name:  "in the repository's config",
			setup: func(t *testing.T, root string) string { return initRepo(t, root) },
			plant: func(t *testing.T, root string) { appendFile(t, filepath.Join(root, ".git", "config"), filter) },
		},
		{
			name: "in a linked worktree's config.worktree",
			setup: func(t *testing.T, root string) string {
				initRepo(t, root)
				gitcmdtest.Git(t, root, "config", "extensions.worktreeConfig", "true")
				wt := filepath.Join(filepath.Dir(root), "wt")
				gitcmdtest.Git(t, root, "worktree", "add", "-q", "-b", "w", wt)
				return wt
			},
			plant: func(t *testing.T, root string) {
				appendFile(t, filepath.Join(root, ".git", "worktrees", "wt", "config.worktree"), filter)
			},
		},
		{
			name: "in an include target made after the first command",
			setup: func(t *testing.T, root string) string {
				initRepo(t, root)
				appendFile(t, filepath.Join(root, ".git", "config"), "[include]\n\tpath = later.config\n")
				return root
			},
			plant: func(t *testing.T, root string) { appendFile(t, filepath.Join(root, ".git", "later.config"), filter) },
		},
		{
			name: "in an includeIf target made after the first command",
			setup: func(t *testing.T, root string) string {
				initRepo(t, root)
				appendFile(t, filepath.Join(root, ".git", "config"), "[includeIf \"onbranch:main\"]\n\tpath = ../../later.config\n")
				return root
			},
			plant: func(t *testing.T, root string) {
				appendFile(t, filepath.Join(filepath.Dir(root), "later.config"), filter)
			},
		},
		{
			name: "in a rewrite of the same size with the same mtime",
			setup: func(t *testing.T, root string) string {
				initRepo(t, root)
				appendFile(t, filepath.Join(root, ".git", "config"), "[filter \"fine\"]\n\tclean = /bin/evil\n")
				return root
			},
			plant: func(t *testing.T, root string) {
				p := filepath.Join(root, ".git", "config")
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(p)
				b = []byte(strings.Replace(string(b), `filter "fine"`, `filter "late"`, 1))
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				// As a coarse clock would see it: same size, same mtime.
				os.Chtimes(p, fi.ModTime(), fi.ModTime())
			},
		},
		{
			name: "in a repository made in a subfolder",
			setup: func(t *testing.T, root string) string {
				initRepo(t, root)
				sub := filepath.Join(root, "sub")
				os.MkdirAll(sub, 0o755)
				return sub
			},
			plant: func(t *testing.T, root string) {
				sub := filepath.Join(root, "sub")
				gitcmdtest.Git(t, sub, "init", "-q")
				appendFile(t, filepath.Join(sub, ".git", "config"), filter)
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			settledClock(t)
			root := filepath.Join(t.TempDir(), "repo")
			dir := c.setup(t, root)
			ctx := context.Background()
			env := baseEnv(nil)
			for i := 0; i < 3; i++ { // the first reading says what to stat, the second is kept
				if _, err := configKeys(ctx, dir, env); err != nil {
					t.Fatal(err)
				}
			}
			reads := configReads.Load()
			keys, err := configKeys(ctx, dir, env)
			if err != nil || configReads.Load() != reads {
				t.Fatalf("an unchanged repository's config was read again (err %v)", err)
			}
			if slices.Contains(keys, "filter.late.clean") {
				t.Fatal("filter.late.clean before it was planted")
			}
			c.plant(t, root)
			keys, err = configKeys(ctx, dir, env)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(keys, "filter.late.clean") {
				t.Errorf("the planted filter.late.clean was not seen: %v", keys)
			}
		})
	}
}

// A planted filter never runs: the hostile repository, a command that
// fills the cache, a filter added to its config, a file that uses it.
func TestPlantedFilterDoesNotRunAfterACachedRead(t *testing.T) {
	r := gitcmdtest.New(t)
	settledClock(t)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := Run(ctx, Cmd{Dir: r.Dir, Args: []string{"status", "--porcelain"}}); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(filepath.Dir(r.Marker), "late-ran")
	prog := filepath.Join(filepath.Dir(r.Marker), "late.sh")
	os.WriteFile(prog, []byte("#!/bin/sh\necho late >> '"+marker+"'\nexec cat\n"), 0o755)
	appendFile(t, filepath.Join(r.Dir, ".git", "config"), "[filter \"late\"]\n\tclean = "+prog+"\n\trequired = true\n")
	appendFile(t, filepath.Join(r.Dir, ".git", "info", "attributes"), "*.late filter=late\n")
	os.WriteFile(filepath.Join(r.Dir, "x.late"), []byte("late\n"), 0o644)
	if _, err := Run(ctx, Cmd{Dir: r.Dir, Args: []string{"add", "-A"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the filter planted after the cached read ran")
	}
	if ran := r.Ran(); len(ran) > 0 {
		t.Errorf("ran: %v", ran)
	}
}

// A reading is kept only when every file that decided it was last
// changed more than settleTime before it began.
func TestSettled(t *testing.T) {
	began := time.Unix(1000, 0)
	at := func(d time.Duration) int64 { return began.Add(d).UnixNano() }
	cases := []struct {
		name string
		ids  []fileID
		want bool
	}{
		{"nothing", nil, true},
		{"old files", []fileID{{exists: true, mtime: at(-time.Hour), ctime: at(-time.Hour)}}, true},
		{"absent files", []fileID{{}}, true},
		{"changed just before", []fileID{{exists: true, mtime: at(-time.Hour), ctime: at(-time.Second)}}, false},
		{"mtime in the future", []fileID{{exists: true, mtime: at(time.Hour), ctime: at(-time.Hour)}}, false},
		{"on the limit", []fileID{{exists: true, mtime: at(-settleTime), ctime: at(-time.Hour)}}, false},
	}
	for _, c := range cases {
		if got := settled(c.ids, began); got != c.want {
			t.Errorf("%s: settled = %v, want %v", c.name, got, c.want)
		}
	}
}

// A fresh reading is not reused before its files settle (the real
// clock): the config is read again.
func TestConfigCacheWaitsForFilesToSettle(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	forgetConfigCache()
	t.Cleanup(forgetConfigCache)
	dir := initRepo(t, filepath.Join(t.TempDir(), "repo"))
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		configKeys(ctx, dir, baseEnv(nil))
	}
	reads := configReads.Load()
	configKeys(ctx, dir, baseEnv(nil))
	if configReads.Load() == reads {
		t.Error("a config written just now was not read again")
	}
}

func TestParseOriginKeys(t *testing.T) {
	out := "file:.git/config\x00core.bare\nfalse\x00file:.git/config\x00include.path\ninc.cfg\x00" +
		"file:/r/.git/inc.cfg\x00includeif.onbranch:a.b.path\n/abs\x00command line:\x00a.b\nc\x00file:x\x00flag\x00"
	keys, incs, ok := parseOriginKeys([]byte(out))
	if !ok || !slices.Equal(keys, []string{"core.bare", "include.path", "includeif.onbranch:a.b.path", "a.b", "flag"}) {
		t.Fatalf("keys %v ok %v", keys, ok)
	}
	if want := []include{{".git/config", "inc.cfg"}, {"/r/.git/inc.cfg", "/abs"}}; !slices.Equal(incs, want) {
		t.Errorf("includes %v, want %v", incs, want)
	}
	if got := includeTarget(incs[0], "/top"); got != "/top/.git/inc.cfg" {
		t.Errorf("target %s", got)
	}
	for _, bad := range []string{"~user/x", "%(prefix)/x", ""} {
		if _, _, ok := parseOriginKeys([]byte("file:c\x00include.path\n" + bad + "\x00")); ok {
			t.Errorf("%q resolvable", bad)
		}
	}
	if _, _, ok := parseOriginKeys([]byte("command line:\x00include.path\nx\x00")); ok {
		t.Error("an include from the command line resolvable")
	}
}

func FuzzParseOriginKeys(f *testing.F) {
	f.Add([]byte("file:.git/config\x00include.path\ninc\x00command line:\x00a.b\nc\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, incs, _ := parseOriginKeys(b)
		for _, inc := range incs {
			_ = includeTarget(inc, "/top")
		}
	})
}

func initRepo(t *testing.T, root string) string {
	t.Helper()
	os.MkdirAll(root, 0o755)
	gitcmdtest.Git(t, root, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	gitcmdtest.Git(t, root, "add", "-A")
	gitcmdtest.Git(t, root, "commit", "-qm", "start")
	return root
}

func appendFile(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// The cache key: what cannot change which config git reads is left out;
// an object directory git could not enter (it would then look for the
// repository further up) and a relative folder are not cached.
func TestCacheKey(t *testing.T) {
	objA, objB := t.TempDir(), t.TempDir()
	key := func(dir string, env ...string) string {
		k, ok := cacheKey(dir, env)
		if !ok {
			return "no cache"
		}
		return k
	}
	same := [][2]string{
		{key("/r", "GIT_INDEX_FILE=/a"), key("/r", "GIT_INDEX_FILE=/b")},
		{key("/r", "GIT_OBJECT_DIRECTORY="+objA), key("/r", "GIT_OBJECT_DIRECTORY="+objB)},
		{key("/r", "GIT_AUTHOR_NAME=a"), key("/r")},
	}
	for i, c := range same {
		if c[0] != c[1] || c[0] == "no cache" {
			t.Errorf("case %d: %q and %q", i, c[0], c[1])
		}
	}
	if key("/r", "GIT_DIR=/a") == key("/r", "GIT_DIR=/b") || key("/r") == key("/s") {
		t.Error("different repositories share a key")
	}
	for _, k := range []string{key("r"), key("", "A=b"), key("/r", "GIT_OBJECT_DIRECTORY="+filepath.Join(objA, "gone"))} {
		if k != "no cache" {
			t.Errorf("cached: %q", k)
		}
	}
}
