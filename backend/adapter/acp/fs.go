package acp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideWorkspace: an agent asked for a file outside the run's
// workspace (directly, through "..", or through a symlink).
var ErrOutsideWorkspace = errors.New("path is outside the workspace")

// ErrGitDir: an agent asked to write inside a .git folder. A repository's
// config and hooks run code in every git command (docs/ARCHITECTURE.md
// §Security), so no agent may change them through the editor's file system.
var ErrGitDir = errors.New("writing inside a .git folder is not allowed")

// maxReadFile bounds fs/read_text_file; an agent wanting more should read
// in slices (line/limit).
const maxReadFile = 16 << 20

// workspace serves ACP's client-side file system inside one directory. The
// lexical check gives a clear error for absolute paths elsewhere; os.Root
// then enforces the boundary at open time, so a symlink inside the
// workspace pointing out of it cannot be followed either.
type workspace struct {
	dir  string // as given
	real string // symlinks resolved
	root *os.Root
}

func openWorkspace(dir string) (*workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return &workspace{dir: abs, real: real, root: root}, nil
}

func (w *workspace) Close() error { return w.root.Close() }

// rel maps an agent's path (absolute per ACP; relative accepted as relative
// to the workspace) to a clean path relative to the workspace.
func (w *workspace) rel(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.dir, p)
	}
	p = filepath.Clean(p)
	for _, base := range []string{w.dir, w.real} {
		r, err := filepath.Rel(base, p)
		if err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return r, nil
		}
	}
	return "", fmt.Errorf("%s: %w %s", p, ErrOutsideWorkspace, w.dir)
}

// read returns a file's text, optionally from a 1-based line for limit
// lines. A missing file reads as "": Gemini CLI reads before it writes a
// new file and treats an error as fatal.
func (w *workspace) read(p string, line, limit *int) (string, error) {
	rel, err := w.rel(p)
	if err != nil {
		return "", err
	}
	var f *os.File
	err = w.do(rel, func(rel string) (err error) {
		f, err = w.root.Open(rel)
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", escapeErr(p, err, w.dir)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return "", fmt.Errorf("%s is a directory", p)
	}
	if st.Size() > maxReadFile {
		return "", fmt.Errorf("%s is %d bytes, more than the %d this editor serves at once", p, st.Size(), maxReadFile)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReadFile))
	if err != nil {
		return "", err
	}
	return sliceLines(string(b), line, limit), nil
}

// write replaces a file's content, creating it and its parent directories
// as needed. It reports whether the file was created.
func (w *workspace) write(p, content string) (rel string, created bool, err error) {
	rel, err = w.rel(p)
	if err != nil {
		return "", false, err
	}
	if rel == "." {
		return "", false, fmt.Errorf("%s is the workspace itself", p)
	}
	if inGitDir(rel) {
		return "", false, fmt.Errorf("%s: %w", p, ErrGitDir)
	}
	err = w.do(rel, func(rel string) error {
		// rel may be the path resolved through an absolute symlink (do),
		// and a relative symlink ("cfg" -> ".git/config") leads there too.
		if inGitDir(rel) || inGitDir(w.resolved(rel)) {
			return fmt.Errorf("%s: %w", p, ErrGitDir)
		}
		_, statErr := w.root.Stat(rel)
		created = errors.Is(statErr, fs.ErrNotExist)
		if dir := filepath.Dir(rel); dir != "." {
			if err := w.root.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		return w.root.WriteFile(rel, []byte(content), 0o644)
	})
	if err != nil {
		return "", false, escapeErr(p, err, w.dir)
	}
	return filepath.ToSlash(rel), created, nil
}

// inGitDir reports whether rel (clean, relative to the workspace) names
// a .git folder or anything in one, at any depth. The case is ignored:
// on a case-insensitive disk ".GIT/config" is git's config too.
func inGitDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// resolved returns rel with the symlinks of its longest existing prefix
// resolved, relative to the workspace ("" when that leads outside, which
// the root refuses on its own).
func (w *workspace) resolved(rel string) string {
	full := filepath.Join(w.real, rel)
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(full); err == nil {
			r, err := filepath.Rel(w.real, filepath.Join(real, rest))
			if err != nil {
				return ""
			}
			return r
		}
		parent := filepath.Dir(full)
		if parent == full {
			return ""
		}
		rest = filepath.Join(filepath.Base(full), rest)
		full = parent
	}
}

// do runs op on rel inside the root. os.Root refuses every absolute
// symlink, even one pointing back inside (common enough in checkouts); in
// that case the path is resolved once and, if it lands inside the
// workspace, op runs again on the resolved path — still through the root,
// so a symlink swapped in meanwhile still cannot lead out.
func (w *workspace) do(rel string, op func(rel string) error) error {
	err := op(rel)
	if err == nil || !isEscape(err) {
		return err
	}
	real, rerr := filepath.EvalSymlinks(filepath.Join(w.real, rel))
	if rerr != nil {
		return err
	}
	r2, rerr := filepath.Rel(w.real, real)
	if rerr != nil || r2 == ".." || strings.HasPrefix(r2, ".."+string(filepath.Separator)) {
		return err
	}
	return op(r2)
}

func isEscape(err error) bool { return strings.Contains(err.Error(), "escapes from parent") }

// escapeErr turns os.Root's refusal to follow a symlink out of the root
// (an unexported error) into ErrOutsideWorkspace.
func escapeErr(p string, err error, dir string) error {
	if isEscape(err) {
		return fmt.Errorf("%s: %w %s (through a symlink)", p, ErrOutsideWorkspace, dir)
	}
	return err
}

// sliceLines returns limit lines starting at the 1-based line.
func sliceLines(s string, line, limit *int) string {
	if line == nil && limit == nil {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	start := 0
	if line != nil && *line > 1 {
		start = *line - 1
	}
	if start >= len(lines) {
		return ""
	}
	end := len(lines)
	if limit != nil && *limit >= 0 && start+*limit < end {
		end = start + *limit
	}
	return strings.Join(lines[start:end], "")
}
