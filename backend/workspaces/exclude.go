package workspaces

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// excludeLine keeps the worktrees folder out of the main checkout's
// status: written to .git/info/exclude, never to the person's .gitignore.
const excludeLine = "/" + WorktreesDir + "/"

// excludeAddition is what to append to an exclude file holding content so
// that it excludes the worktrees folder: "" when a line already does.
// Appended, never rewritten: the person's own lines stay as they are.
func excludeAddition(content string) string {
	for _, line := range strings.Split(content, "\n") {
		switch strings.TrimSpace(line) {
		case excludeLine, WorktreesDir, WorktreesDir + "/", "/" + WorktreesDir:
			return ""
		}
	}
	add := "# Hermes Desk's worktrees (docs: Workspaces)\n" + excludeLine + "\n"
	if content != "" && !strings.HasSuffix(content, "\n") {
		add = "\n" + add
	}
	return add
}

// ensureExcluded appends the worktrees folder to commonDir/info/exclude
// when it is not there yet.
func ensureExcluded(commonDir string) error {
	path := filepath.Join(commonDir, "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("git's exclude file could not be read: %w", err)
	}
	add := excludeAddition(string(data))
	if add == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("git's info folder could not be made: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("git's exclude file could not be opened: %w", err)
	}
	if _, err := f.WriteString(add); err != nil {
		f.Close()
		return fmt.Errorf("git's exclude file could not be written: %w", err)
	}
	return f.Close()
}
