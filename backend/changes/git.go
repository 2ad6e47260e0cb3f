package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ErrNotGit: the workspace is not inside a git work tree (or git is not
// installed); the run then reports only the files the agent named.
var ErrNotGit = errors.New("changes: not a git work tree")

// MaxFiles bounds how many files one run's workspace snapshot reports.
const MaxFiles = 500

// maxDiffOutput bounds the diff text read from git for one run; files
// whose patch falls beyond it are named without a diff.
const maxDiffOutput = 64 << 20

// MaxFileSize is the default size above which a file is left out of the
// snapshots: hashing a 500 MB file would add seconds to every run and
// store its copy. Such a file is named, "not compared".
const MaxFileSize = 50 << 20

// Snapshots takes snapshots of one workspace around a run and diffs them
// (docs/ARCHITECTURE.md §Events, "file.changed"). Every git command goes
// through gitcmd. It never touches the person's index, stash, HEAD, refs
// or object store: `git add -A` runs against a temporary copy of the index
// (GIT_INDEX_FILE, keeping git's stat cache), and the objects it writes go
// to a temporary object store (GIT_OBJECT_DIRECTORY) that borrows the
// repository's objects read-only (GIT_ALTERNATE_OBJECT_DIRECTORIES). All of
// it lives in one temporary folder, removed by Close, or by the next
// Snapshots opened after a process that was killed.
type Snapshots struct {
	workspace string
	top       string // the work tree's top folder
	index     string // the person's index, copied for each snapshot
	objects   string // the person's object store, read only (written when keep)
	prefix    string // the workspace relative to the top ("sub/", "" at the top)
	gitDir    string // the repository's common git dir (where refs live)
	shadow    bool   // gitDir is a shadow repository of a plain folder
	keep      bool   // objects are written to the repository's own store
	tmp       *tempDir
	// MaxFileSize: files above it are left out (default MaxFileSize);
	// below 0, none is (a merge takes every file: docs/ARCHITECTURE.md
	// §Merge), and the work tree is not listed twice.
	MaxFileSize int64
}

// Snap is one snapshot: the work tree as a tree object, and the files left
// out of it for their size.
type Snap struct {
	Tree  string
	Large map[string]stamp // by path relative to the top, slash-separated
}

// stamp tells whether a large file changed without reading it.
type stamp struct {
	size    int64
	modTime time.Time
	tracked bool // in the index: an earlier version is known to git
}

// Open prepares snapshots of workspace; ErrNotGit outside a git work tree.
func Open(ctx context.Context, workspace string) (*Snapshots, error) {
	return OpenWith(ctx, workspace, Options{})
}

// Options choose where a snapshot's objects go. The zero value is the
// run's diff snapshot: a temporary object store, nothing kept.
type Options struct {
	// Keep writes the snapshot's objects into the repository's own object
	// store, so a commit and a ref can keep them (backend/checkpoints;
	// docs/ARCHITECTURE.md §Checkpoints). Only objects are added: the
	// index, stash, HEAD and branches are still never touched.
	Keep bool
	// ShadowGitDir, for a folder that is not a git work tree, is a bare
	// repository (made if missing) that holds its snapshots: the folder
	// never gains a .git. Empty: such a folder gives ErrNotGit.
	ShadowGitDir string
}

// OpenWith prepares snapshots of workspace as o says.
func OpenWith(ctx context.Context, workspace string, o Options) (*Snapshots, error) {
	out, err := gitcmd.Output(ctx, workspace, "rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-path", "index", "--git-path", "objects", "--show-prefix", "--git-common-dir")
	var s *Snapshots
	switch lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err == nil && len(lines) == 5:
		s = &Snapshots{workspace: workspace, top: lines[0], index: lines[1], objects: lines[2],
			prefix: lines[3], gitDir: lines[4]}
	case o.ShadowGitDir == "":
		// Not a work tree, a bare repository, or a path git cannot print
		// on one line.
		return nil, ErrNotGit
	default:
		if s, err = openShadow(ctx, workspace, o.ShadowGitDir); err != nil {
			return nil, err
		}
	}
	s.keep = o.Keep || s.shadow
	tmp, err := newTempDir()
	if err != nil {
		return nil, fmt.Errorf("changes: a temporary folder for the snapshots: %w", err)
	}
	s.tmp, s.MaxFileSize = tmp, MaxFileSize
	return s, nil
}

// openShadow makes (or opens) the bare repository that holds a plain
// folder's snapshots; its own index keeps the stat cache between runs.
func openShadow(ctx context.Context, workspace, gitDir string) (*Snapshots, error) {
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		if err := os.MkdirAll(filepath.Dir(gitDir), 0o700); err != nil {
			return nil, fmt.Errorf("changes: make the folder for the shadow repository: %w", err)
		}
		if _, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: filepath.Dir(gitDir), Args: []string{"init", "--quiet", "--bare", gitDir}}); err != nil {
			return nil, fmt.Errorf("changes: make the shadow repository: %w", err)
		}
	}
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return nil, fmt.Errorf("changes: the workspace's path: %w", err)
	}
	return &Snapshots{workspace: abs, top: abs, index: filepath.Join(gitDir, "index"),
		objects: filepath.Join(gitDir, "objects"), gitDir: gitDir, shadow: true}, nil
}

// GitDir is the repository the snapshots' objects and refs belong to: the
// workspace's common git dir, or its shadow repository.
func (s *Snapshots) GitDir() string { return s.gitDir }

// Top is the work tree's top folder; snapshot paths are relative to it.
func (s *Snapshots) Top() string { return s.top }

// Shadow: the workspace is a plain folder snapshotted into GitDir.
func (s *Snapshots) Shadow() bool { return s.shadow }

// Env is the environment a git command about these snapshots needs: the
// shadow repository and its work tree, the object store, the temporary
// index. Every git command still goes through gitcmd.
func (s *Snapshots) Env() []string { return s.env() }

// Close removes the snapshots' temporary folder.
func (s *Snapshots) Close() error { return s.tmp.remove() }

// env points git at the temporary index and object store.
func (s *Snapshots) env() []string {
	env := []string{"GIT_INDEX_FILE=" + s.tmp.index()}
	if s.shadow {
		env = append(env, "GIT_DIR="+s.gitDir, "GIT_WORK_TREE="+s.top)
	}
	if s.keep {
		return append(env, "GIT_OBJECT_DIRECTORY="+s.objects)
	}
	return append(env,
		"GIT_OBJECT_DIRECTORY="+s.tmp.objects(),
		"GIT_ALTERNATE_OBJECT_DIRECTORIES="+s.objects)
}

// Snapshot writes the work tree (tracked and untracked files, .gitignore
// respected, files above MaxFileSize left out) as a tree object.
func (s *Snapshots) Snapshot(ctx context.Context) (Snap, error) {
	if err := s.copyIndex(); err != nil {
		return Snap{}, err
	}
	large, err := s.largeFiles(ctx)
	if err != nil {
		return Snap{}, err
	}
	// The pathspecs go through stdin: one per large file, never a
	// command line too long.
	var specs bytes.Buffer
	specs.WriteString(".\x00")
	for p := range large {
		specs.WriteString(":(exclude,literal)" + p + "\x00")
	}
	cfg := []string{"core.splitIndex=false"}
	if _, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.top, Env: s.env(), Config: cfg, Stdin: &specs,
		Args: []string{"add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"}}); err != nil {
		return Snap{}, fmt.Errorf("changes: snapshot the work tree: %w", err)
	}
	tree, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.top, Env: s.env(), Config: cfg, Args: []string{"write-tree"}})
	if err != nil {
		return Snap{}, fmt.Errorf("changes: write the snapshot: %w", err)
	}
	if s.shadow {
		// The shadow index is the plain folder's stat cache for the
		// next snapshot (a rename: a reader sees the old or the new).
		if err := copyFile(s.tmp.index(), s.index+".new"); err == nil {
			os.Rename(s.index+".new", s.index)
		}
	}
	return Snap{Tree: strings.TrimSpace(string(tree)), Large: large}, nil
}

// LargePaths are the files left out of a snapshot for their size, relative
// to the top, sorted.
func (sn Snap) LargePaths() []string {
	out := make([]string, 0, len(sn.Large))
	for p := range sn.Large {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// copyIndex starts the temporary index from the person's, for its stat
// cache; a fresh repository has none, and git makes one.
func (s *Snapshots) copyIndex() error {
	dst := s.tmp.index()
	os.Remove(dst)
	err := copyFile(s.index, dst)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("changes: copy the index: %w", err)
	}
	return nil
}

// copyFile copies an index file and keeps its mtime: git re-reads the
// files whose entries are not older than the index ("racy git"), and a
// copy stamped with the time of copying would make it trust the stat of a
// file edited, same size, in the second the index was written
// (docs/ARCHITECTURE.md §Events, "file.changed").
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(to, fi.ModTime(), fi.ModTime())
}

// largeFiles lists the untracked and modified files above MaxFileSize.
func (s *Snapshots) largeFiles(ctx context.Context) (map[string]stamp, error) {
	if s.MaxFileSize < 0 {
		return nil, nil
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.top, Env: s.env(),
		Args: []string{"ls-files", "-z", "-t", "--modified", "--others", "--exclude-standard"}})
	if err != nil {
		return nil, fmt.Errorf("changes: list the work tree: %w", err)
	}
	large := map[string]stamp{}
	// -t tags each name: "? " untracked, "C " changed, "R " removed.
	for _, entry := range strings.Split(string(out), "\x00") {
		tag, p, ok := strings.Cut(entry, " ")
		if !ok || p == "" {
			continue
		}
		fi, err := os.Lstat(filepath.Join(s.top, filepath.FromSlash(p)))
		if err == nil && fi.Mode().IsRegular() && fi.Size() > s.MaxFileSize {
			large[p] = stamp{fi.Size(), fi.ModTime(), tag != "?"}
		}
	}
	return large, nil
}

// Between returns one file.changed per file that differs between two
// snapshots, paths relative to the workspace (files elsewhere in the
// repository are left out), with git's own diff; large files that appeared
// or changed are named, not compared.
func (s *Snapshots) Between(ctx context.Context, from, to Snap) ([]run.FileChanged, error) {
	var files []run.FileChanged
	if from.Tree != to.Tree {
		// --relative (run in the workspace) limits the diff to it and
		// makes the paths relative to it; -z names every file exactly.
		out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.workspace, Env: s.env(), MaxOutput: maxDiffOutput,
			Config: []string{"core.quotePath=off", fmt.Sprintf("core.bigFileThreshold=%d", s.MaxFileSize)},
			Args: []string{"diff", "--raw", "-z", "-p", "--no-color", "--no-renames", "--relative",
				"--src-prefix=a/", "--dst-prefix=b/", from.Tree, to.Tree}})
		cut := errors.Is(err, gitcmd.ErrOutputCut)
		if err != nil && !cut {
			return nil, fmt.Errorf("changes: diff the snapshots: %w", err)
		}
		files = parseDiff(out, cut)
	}
	files = append(files, s.largeChanges(from, to)...)
	if len(files) > MaxFiles {
		files = files[:MaxFiles]
	}
	return files, nil
}

// NotComparedLarge is what a large file's entry says.
const NotComparedLarge = "larger than 50 MiB"

// largeChanges names the large files that appeared, changed or went away
// between two snapshots, those inside the workspace.
func (s *Snapshots) largeChanges(from, to Snap) []run.FileChanged {
	var out []run.FileChanged
	reason := NotComparedLarge
	if s.MaxFileSize != MaxFileSize {
		reason = fmt.Sprintf("larger than %d bytes", s.MaxFileSize)
	}
	add := func(p, action string) {
		if rel, ok := s.inWorkspace(p); ok {
			out = append(out, run.FileChanged{Path: rel, Action: action, Source: run.SourceWorkspace, NotCompared: reason})
		}
	}
	for p, st := range to.Large {
		was, ok := from.Large[p]
		switch {
		case !ok && st.tracked:
			add(p, "modified") // grown past the limit
		case !ok:
			add(p, "created")
		case was != st:
			add(p, "modified")
		}
	}
	for p := range from.Large {
		if _, ok := to.Large[p]; !ok {
			if _, err := os.Lstat(filepath.Join(s.top, filepath.FromSlash(p))); errors.Is(err, os.ErrNotExist) {
				add(p, "deleted")
			}
		}
	}
	return out
}

// inWorkspace maps a path relative to the top to one relative to the
// workspace.
func (s *Snapshots) inWorkspace(p string) (string, bool) {
	if !strings.HasPrefix(p, s.prefix) {
		return "", false
	}
	return strings.TrimPrefix(p, s.prefix), true
}
