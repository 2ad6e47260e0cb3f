package checkpoints

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fileOp is one file an undo or a restore writes or removes.
type fileOp struct {
	path    string // slash-separated, from the top
	remove  bool
	mode    string // git's: 100644, 100755, 120000 (a symlink)
	oid     string // the blob to write, read into content before applying
	content []byte
}

// do applies the op under top: content through a temporary file renamed
// into place (a reader sees the old file or the new, never half), a
// symlink as a link, a removal with the folders it leaves empty.
func (op fileOp) do(top string) error {
	if !safePath(op.path) {
		return fmt.Errorf("refused a path outside the workspace")
	}
	if err := realFolders(top, op.path); err != nil {
		return err
	}
	p := filepath.Join(top, filepath.FromSlash(op.path))
	if op.remove {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		removeEmptyParents(top, filepath.Dir(p))
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(p), ".hermesdesk-restore-"+filepath.Base(p))
	os.Remove(tmp)
	if op.mode == "120000" {
		if err := os.Symlink(string(op.content), tmp); err != nil {
			return err
		}
	} else {
		perm := os.FileMode(0o644)
		if op.mode == "100755" {
			perm = 0o755
		}
		if err := os.WriteFile(tmp, op.content, perm); err != nil {
			os.Remove(tmp)
			return err
		}
		if err := os.Chmod(tmp, perm); err != nil { // the umask is not git's
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// realFolders refuses a path one of whose folders is now a link (or a
// file): writing through it would write outside the workspace.
func realFolders(top, rel string) error {
	parts := strings.Split(rel, "/")
	dir := top
	for _, part := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil // made below by MkdirAll, as a real folder
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("refused: %s is now a link or a file, not a folder", strings.TrimPrefix(dir, top+string(filepath.Separator)))
		}
	}
	return nil
}

// safePath: a relative path that stays below the top and out of .git.
func safePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "" || strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}

func removeEmptyParents(top, dir string) {
	top = filepath.Clean(top)
	for dir = filepath.Clean(dir); dir != top && strings.HasPrefix(dir, top+string(filepath.Separator)); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil { // not empty (or gone): stop
			return
		}
	}
}
