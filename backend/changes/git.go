package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	objects   string // the person's object store, read only
	prefix    string // the workspace relative to the top ("sub/", "" at the top)
	tmp       *tempDir
	// MaxFileSize: files above it are left out (default MaxFileSize).
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
	out, err := gitcmd.Output(ctx, workspace, "rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-path", "index", "--git-path", "objects", "--show-prefix")
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, ErrNotGit
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		return nil, ErrNotGit // a bare repository, or a path git cannot print on one line
	}
	tmp, err := newTempDir()
	if err != nil {
		return nil, fmt.Errorf("changes: a temporary folder for the snapshots: %w", err)
	}
	return &Snapshots{workspace: workspace, top: lines[0], index: lines[1], objects: lines[2],
		prefix: lines[3], tmp: tmp, MaxFileSize: MaxFileSize}, nil
}

// Close removes the snapshots' temporary folder.
func (s *Snapshots) Close() error { return s.tmp.remove() }

// env points git at the temporary index and object store.
func (s *Snapshots) env() []string {
	return []string{
		"GIT_INDEX_FILE=" + s.tmp.index(),
		"GIT_OBJECT_DIRECTORY=" + s.tmp.objects(),
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=" + s.objects,
	}
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
	return Snap{Tree: strings.TrimSpace(string(tree)), Large: large}, nil
}

// copyIndex starts the temporary index from the person's, for its stat
// cache; a fresh repository has none, and git makes one.
func (s *Snapshots) copyIndex() error {
	dst := s.tmp.index()
	os.Remove(dst)
	src, err := os.Open(s.index)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("changes: read the index: %w", err)
	}
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("changes: temporary index: %w", err)
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return fmt.Errorf("changes: copy the index: %w", err)
	}
	return out.Close()
}

// largeFiles lists the untracked and modified files above MaxFileSize.
func (s *Snapshots) largeFiles(ctx context.Context) (map[string]stamp, error) {
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
