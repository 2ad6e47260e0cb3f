package checkpoints

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// pathChange is one path that differs between two trees.
type pathChange struct {
	path     string
	from, to Entry
}

// diffTrees lists the paths that differ between two trees or commits
// (recursive, no renames: a rename is a removal and a creation).
func (r repo) diffTrees(ctx context.Context, from, to string) ([]pathChange, error) {
	out, err := r.git(ctx, "", "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", from, to)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: compare the files: %w", err)
	}
	return parseRaw(out), nil
}

// gitlink: a nested repository (a submodule, or a repository inside a
// plain folder): its files are not in the checkpoint, so it is never
// written back.
func (c pathChange) gitlink() bool { return c.from.Mode == "160000" || c.to.Mode == "160000" }

// nestedRepo is what an undo or restore says of a gitlink.
func nestedRepo(path string) run.CheckpointFile {
	return run.CheckpointFile{Path: path, Action: string(RestoreSkip), Reason: "a nested repository: its files are not kept"}
}

// parseRaw reads `git diff-tree -r -z` output:
// ":<mode> <mode> <oid> <oid> <status>\0<path>\0".
func parseRaw(out string) []pathChange {
	var cs []pathChange
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) < 5 || !isMode(meta[0]) || !isMode(meta[1]) || fields[i+1] == "" {
			continue // not a record git writes
		}
		cs = append(cs, pathChange{path: fields[i+1], from: entry(meta[0], meta[2]), to: entry(meta[1], meta[3])})
	}
	return cs
}

func isMode(m string) bool {
	if len(m) != 6 {
		return false
	}
	for _, c := range m {
		if c < '0' || c > '7' {
			return false
		}
	}
	return true
}

func entry(mode, oid string) Entry {
	if strings.Trim(mode, "0") == "" {
		return Entry{}
	}
	return Entry{Mode: mode, OID: oid}
}

// blobs reads the blobs named (one git process for all).
func (r repo) blobs(ctx context.Context, oids []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(oids) == 0 {
		return out, nil
	}
	var in strings.Builder
	for _, o := range oids {
		in.WriteString(o + "\n")
	}
	raw, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: r.s.Top(), Env: r.s.Env(), Stdin: strings.NewReader(in.String()),
		Args: []string{"cat-file", "--batch"}})
	if err != nil {
		return nil, fmt.Errorf("checkpoints: read the kept files: %w", err)
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	for range oids {
		head, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("checkpoints: read the kept files: %w", err)
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			return nil, fmt.Errorf("checkpoints: a kept file is missing (%s)", strings.TrimSpace(head))
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("checkpoints: read the kept files: %w", err)
		}
		b := make([]byte, n+1) // the content and its newline
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, fmt.Errorf("checkpoints: read the kept files: %w", err)
		}
		out[f[0]] = b[:n]
	}
	return out, nil
}

// merge3 merges a text file's change since the run (ours) with the undo
// (theirs) on their common base (the file after the run), with git's own
// merge-file; conflicts: the same lines changed on both sides.
func (r repo) merge3(ctx context.Context, ours, base, theirs []byte) (merged []byte, conflicts bool, err error) {
	dir, err := os.MkdirTemp("", "hermesdesk-merge-")
	if err != nil {
		return nil, false, fmt.Errorf("checkpoints: a folder for the merge: %w", err)
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, b := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), b, 0o600); err != nil {
			return nil, false, fmt.Errorf("checkpoints: write the merge's input: %w", err)
		}
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Args: []string{"merge-file", "-p", "-q", "ours", "base", "theirs"}})
	if err != nil {
		// merge-file exits with the number of conflicts (>0); the output
		// is then not wanted.
		if ctx.Err() != nil {
			return nil, false, err
		}
		return nil, true, nil
	}
	return out, false, nil
}
