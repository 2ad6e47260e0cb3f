package gitcmd

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The config read before every command (configKeys) is kept per
// directory and environment, and reused only while every file that
// decided it is unchanged, checked with a stat on every call
// (docs/ARCHITECTURE.md §Security, "Git in a project"): the files git
// finds the repository by (.git, HEAD, commondir at every level from the
// directory up to the top), the repository's config and config.worktree
// files, and every include and includeIf target, those that do not exist
// yet included. A file's identity is its device, inode, size, mode, mtime
// and ctime to the nanosecond; a reading is kept only when every one of
// those files was last changed more than settleTime before it began, so a
// rewrite within one tick of a coarse clock cannot look unchanged.

// settleTime is how old a file's last change must be for a reading to be
// kept: more than the coarsest file-time granularity (FAT's 2 s).
const settleTime = 3 * time.Second

// maxCacheEntries bounds the cache (each snapshot's temporary index makes
// a key of its own); past it, the cache starts again empty.
const maxCacheEntries = 256

var configCache = struct {
	sync.Mutex
	entries map[string]*cacheEntry
}{entries: map[string]*cacheEntry{}}

// cacheEntry is one reading: keys, and the files that decided them with
// their identities at the reading's start (ids nil: not reusable yet, the
// files are the list to stat before the next reading).
type cacheEntry struct {
	realDir string
	keys    []string
	files   []watched
	ids     []fileID
}

// watched is a file the reading depends on; presence says only whether it
// is there and is a folder (git checks objects/ and refs/ that way), not
// what is in it.
type watched struct {
	path     string
	presence bool
}

// fileID is what says a file is the same, unchanged: a rewrite changes
// its ctime at least, which no program can set back.
type fileID struct {
	exists       bool
	dir          bool
	dev, ino     uint64
	size         int64
	mode         uint32
	mtime, ctime int64
}

// now is the clock; tests move it.
var now = time.Now

// configKeys lists the keys the config git would read in dir defines
// (the repository's, and every file it includes), as `git config -z
// --list` prints them: from the cache while nothing it depends on
// changed, else read (and kept when it can be). Outside a repository the
// list is empty.
func configKeys(ctx context.Context, dir string, env []string) ([]string, error) {
	key, cacheable := cacheKey(dir, env)
	if !cacheable {
		return readKeys(ctx, dir, env)
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return readKeys(ctx, dir, env)
	}
	configCache.Lock()
	e := configCache.entries[key]
	configCache.Unlock()
	if e != nil && e.ids != nil && e.realDir == realDir && unchanged(e.files, e.ids) {
		return e.keys, nil
	}
	began := now()
	var ids []fileID
	var hint []watched
	if e != nil && e.realDir == realDir {
		hint = e.files
		ids = statAll(hint)
	}
	keys, files, err := readDecidingFiles(ctx, dir, realDir, env)
	if err != nil {
		return nil, err
	}
	configCache.Lock()
	defer configCache.Unlock()
	switch {
	case files == nil:
		delete(configCache.entries, key)
	case ids != nil && covers(hint, files) && settled(ids, began):
		configCache.entries[key] = &cacheEntry{realDir: realDir, keys: keys, files: hint, ids: ids}
	default:
		// Not reusable yet: what to stat before the next reading.
		if len(configCache.entries) >= maxCacheEntries {
			configCache.entries = map[string]*cacheEntry{}
		}
		configCache.entries[key] = &cacheEntry{realDir: realDir, files: files}
	}
	return keys, nil
}

// cacheKey is dir and the environment, less the variables that cannot
// change which config git reads; a relative dir (the app's own working
// folder, which can change) is not cached.
func cacheKey(dir string, env []string) (string, bool) {
	if !filepath.IsAbs(dir) || !fileIDsKnown {
		return "", false
	}
	var b strings.Builder
	b.WriteString(filepath.Clean(dir))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_OBJECT_DIRECTORY":
			// Each snapshot has its own: the key leaves it out, and it
			// counts only by being a folder git can enter (git takes the
			// git dir for one only then: otherwise it looks further up).
			if _, v, _ := strings.Cut(kv, "="); !searchable(v) {
				return "", false
			}
			continue
		case name == "GIT_INDEX_FILE", name == "GIT_ALTERNATE_OBJECT_DIRECTORIES",
			strings.HasPrefix(name, "GIT_AUTHOR_"), strings.HasPrefix(name, "GIT_COMMITTER_"):
			continue
		}
		b.WriteByte(0)
		b.WriteString(kv)
	}
	return b.String(), true
}

// readDecidingFiles reads the keys, and asks git where the repository is;
// files are what decided the keys (nil: nothing to reuse the reading by,
// as outside a repository).
func readDecidingFiles(ctx context.Context, dir, realDir string, env []string) ([]string, []watched, error) {
	where, werr := run(ctx, dir, append(env, configEnv(fixed)...), nil, []string{"rev-parse",
		"--path-format=absolute", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"}, 0)
	out, err := readConfig(ctx, dir, env, "--show-origin")
	if err != nil {
		return nil, nil, err
	}
	keys, includes, resolvable := parseOriginKeys(out)
	if werr != nil || !resolvable {
		return keys, nil, nil
	}
	lines := strings.Split(strings.TrimSuffix(string(where), "\n"), "\n")
	if len(lines) != 3 {
		return keys, nil, nil
	}
	top, gitDir, common := lines[0], lines[1], lines[2]
	files := repoFiles(realDir, top, gitDir, common)
	if files == nil {
		return keys, nil, nil
	}
	for _, inc := range includes {
		files = append(files, watched{path: includeTarget(inc, top)})
	}
	return keys, files, nil
}

// repoFiles are the files git finds the repository by and reads its
// config from: at every level from dir up to the top, .git and what
// would make that level a bare repository of its own; the git dir's and
// the common dir's HEAD, commondir, objects/, refs/, config and
// config.worktree. Nil when dir is not under top (a path git resolved
// differently).
func repoFiles(dir, top, gitDir, common string) []watched {
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	var files []watched
	for d := dir; ; d = filepath.Dir(d) {
		files = append(files, watched{path: filepath.Join(d, ".git")}, watched{path: filepath.Join(d, "HEAD")},
			watched{path: filepath.Join(d, "objects"), presence: true}, watched{path: filepath.Join(d, "refs"), presence: true})
		if d == top || d == filepath.Dir(d) {
			break
		}
	}
	for _, g := range []string{gitDir, common} {
		files = append(files, watched{path: filepath.Join(g, "HEAD")}, watched{path: filepath.Join(g, "commondir")},
			watched{path: filepath.Join(g, "config")}, watched{path: filepath.Join(g, "config.worktree")},
			watched{path: filepath.Join(g, "objects"), presence: true}, watched{path: filepath.Join(g, "refs"), presence: true})
	}
	return files
}

// includeTarget is the file an include names, as git resolves it: "~/"
// from HOME (the null device here), a relative path from the folder of
// the file that holds the include (git prints that file relative to the
// top).
func includeTarget(inc include, top string) string {
	p := inc.path
	switch {
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(nullHome, p[2:])
	case filepath.IsAbs(p):
		return p
	}
	origin := inc.origin
	if !filepath.IsAbs(origin) {
		origin = filepath.Join(top, origin)
	}
	return filepath.Join(filepath.Dir(origin), p)
}

// covers: every file of want is in have.
func covers(have, want []watched) bool {
	set := make(map[watched]bool, len(have))
	for _, w := range have {
		set[w] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}

func statAll(files []watched) []fileID {
	ids := make([]fileID, len(files))
	for i, f := range files {
		ids[i] = identify(f)
	}
	return ids
}

func unchanged(files []watched, ids []fileID) bool {
	for i, f := range files {
		if identify(f) != ids[i] {
			return false
		}
	}
	return true
}

// settled: every file that exists was last changed before the reading
// began, by more than the coarsest clock tick.
func settled(ids []fileID, began time.Time) bool {
	limit := began.Add(-settleTime).UnixNano()
	for _, id := range ids {
		if id.exists && (id.mtime >= limit || id.ctime >= limit) {
			return false
		}
	}
	return true
}
