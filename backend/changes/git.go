package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ErrNotGit: the workspace is not inside a git work tree (or git is not
// installed); the run then reports only the files the agent named.
var ErrNotGit = errors.New("changes: not a git work tree")

// MaxFiles bounds how many files one run's workspace snapshot reports.
const MaxFiles = 500

// Snapshot writes the workspace's working tree (tracked and untracked
// files, .gitignore respected) as a git tree object and returns its id.
//
// It never touches the person's index, stash, HEAD or refs: `git add -A`
// runs against a temporary copy of the index (GIT_INDEX_FILE), which also
// keeps git's stat cache so unchanged files are not re-read. The only
// lasting effect is blob and tree objects in the object store, which
// `git gc` prunes like any unreachable object.
func Snapshot(ctx context.Context, workspace string) (string, error) {
	top, err := git(ctx, workspace, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", ErrNotGit
	}
	top = strings.TrimSpace(top)
	indexPath, err := git(ctx, top, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", fmt.Errorf("changes: find the index: %w", err)
	}
	tmp, err := os.CreateTemp("", "hermesdesk-index-*")
	if err != nil {
		return "", fmt.Errorf("changes: temporary index: %w", err)
	}
	tmpPath := tmp.Name()
	defer os.Remove(tmpPath)
	if src, err := os.Open(strings.TrimSpace(indexPath)); err == nil {
		_, err = io.Copy(tmp, src)
		src.Close()
		if err != nil {
			tmp.Close()
			return "", fmt.Errorf("changes: copy the index: %w", err)
		}
	} else {
		// No index yet (a fresh repository): git refuses an empty file as
		// an index, so let it create one.
		tmp.Close()
		os.Remove(tmpPath)
		tmp = nil
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return "", fmt.Errorf("changes: temporary index: %w", err)
		}
	}
	env := []string{"GIT_INDEX_FILE=" + tmpPath}
	if _, err := git(ctx, top, env, "add", "-A", "--", "."); err != nil {
		return "", fmt.Errorf("changes: snapshot the work tree: %w", err)
	}
	tree, err := git(ctx, top, env, "write-tree")
	if err != nil {
		return "", fmt.Errorf("changes: write the snapshot: %w", err)
	}
	return strings.TrimSpace(tree), nil
}

// Between returns one file.changed per file that differs between two
// snapshots of workspace, paths relative to the workspace (files outside
// it, elsewhere in the repository, are left out), with git's own diff.
func Between(ctx context.Context, workspace, from, to string) ([]run.FileChanged, error) {
	if from == to {
		return nil, nil
	}
	// --relative (run in the workspace) limits the diff to it and makes
	// the paths relative to it.
	out, err := git(ctx, workspace, nil, "-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff",
		"--no-renames", "--no-textconv", "--relative", "--src-prefix=a/", "--dst-prefix=b/", from, to)
	if err != nil {
		return nil, fmt.Errorf("changes: diff the snapshots: %w", err)
	}
	files := SplitPatch(out)
	if len(files) > MaxFiles {
		files = files[:MaxFiles]
	}
	return files, nil
}

// SplitPatch cuts git's multi-file patch into one file.changed per file.
func SplitPatch(patch string) []run.FileChanged {
	var out []run.FileChanged
	for _, part := range strings.Split("\n"+patch, "\ndiff --git ")[1:] {
		body := "diff --git " + part
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		fc := run.FileChanged{Action: "modified", Source: run.SourceWorkspace}
		header, _, _ := strings.Cut(part, "\n")
		for _, line := range strings.Split(body, "\n") {
			switch {
			case strings.HasPrefix(line, "new file mode"):
				fc.Action = "created"
			case strings.HasPrefix(line, "deleted file mode"):
				fc.Action = "deleted"
			case strings.HasPrefix(line, "Binary files "), strings.HasPrefix(line, "GIT binary patch"):
				fc.Binary = true
			case strings.HasPrefix(line, "+++ b/"):
				fc.Path = strings.TrimPrefix(line, "+++ b/")
			case strings.HasPrefix(line, "--- a/") && fc.Path == "":
				fc.Path = strings.TrimPrefix(line, "--- a/")
			case strings.HasPrefix(line, "@@"):
			}
		}
		if fc.Path == "" { // binary or mode-only: the header names it
			if _, b, ok := strings.Cut(header, " b/"); ok {
				fc.Path = b
			}
		}
		if !fc.Binary {
			fc.Added, fc.Removed = Count(body)
			fc.Diff, fc.Truncated = Truncate(body, MaxDiff)
		}
		out = append(out, fc)
	}
	return out
}

func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// No pager, no prompts, no hooks' output in our diff; the person's
	// global config (renames, colours) is overridden per flag above.
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return stdout.String(), nil
}
