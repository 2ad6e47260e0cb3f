package gitcmd

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// MergeTree is what `git merge-tree --write-tree` answers for two commits:
// the merged tree (with conflict markers in conflicted files) and, when the
// merge is not clean, which paths conflict and why. Nothing is written
// but objects: no index, no working tree, no ref (docs/ARCHITECTURE.md
// §Merge). Merge preview and the conflict radar both read it.
type MergeTree struct {
	// Tree is the merged tree's object id; conflicted files hold git's
	// conflict markers in it.
	Tree string
	// Clean is true when git merged everything by itself.
	Clean bool
	// Conflicts are the conflicted files' index entries, stage 1 (base),
	// 2 (ours) and 3 (theirs); a path appears once per stage it has.
	Conflicts []ConflictEntry
	// Messages are git's informational messages (CONFLICT (content) …,
	// Auto-merging …), each with the paths it is about.
	Messages []MergeMessage
}

// ConflictEntry is one `<mode> <object> <stage>\t<path>` record.
type ConflictEntry struct {
	Mode   string
	Object string
	Stage  int
	Path   string
}

// MergeMessage is one informational message: the paths it names, git's
// type for it ("CONFLICT (contents)", "Auto-merging", …) and its text.
type MergeMessage struct {
	Paths []string
	Type  string
	Text  string
}

// ConflictedPaths lists each conflicted path once, in git's order.
func (m MergeTree) ConflictedPaths() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range m.Conflicts {
		if !seen[c.Path] {
			seen[c.Path] = true
			out = append(out, c.Path)
		}
	}
	return out
}

// MergeTreeOf merges commits ours and theirs (anything rev-parse takes) of
// the repository at dir in memory. Git's exit status 1 means "conflicts",
// an answer rather than a failure; any other failure is an error.
func MergeTreeOf(ctx context.Context, dir, ours, theirs string) (MergeTree, error) {
	out, err := runAnswer(ctx, Cmd{Dir: dir, Args: []string{"merge-tree", "--write-tree", "-z", "--messages", ours, theirs}}, 1)
	if err != nil {
		return MergeTree{}, err
	}
	return ParseMergeTree(string(out))
}

// runAnswer is Run for commands whose listed exit statuses (besides 0) are
// answers: their output is returned with no error.
func runAnswer(ctx context.Context, c Cmd, answers ...int) ([]byte, error) {
	out, err := Run(ctx, c)
	var exit *exec.ExitError
	if err != nil && errors.As(err, &exit) {
		for _, code := range answers {
			if exit.ExitCode() == code {
				return lastOutput(err), nil
			}
		}
	}
	return out, err
}

// ParseMergeTree reads `git merge-tree --write-tree -z --messages`:
//
//	<tree> NUL
//	(<mode> SP <object> SP <stage> TAB <path> NUL)*   only when not clean
//	NUL
//	(<n> NUL (<path> NUL){n} <type> NUL <text> NUL)*
//
// A clean merge is the tree id alone. Clean is decided by the conflict
// entries, not by the messages (git also tells "Auto-merging" for clean
// files).
func ParseMergeTree(out string) (MergeTree, error) {
	fields := strings.Split(out, "\x00")
	if len(fields) == 0 || !isObjectID(fields[0]) {
		return MergeTree{}, fmt.Errorf("git merge-tree gave no tree id: %q", cut(out, 80))
	}
	m := MergeTree{Tree: fields[0], Clean: true}
	i := 1
	for ; i < len(fields) && fields[i] != ""; i++ {
		e, ok := parseConflictEntry(fields[i])
		if !ok {
			return MergeTree{}, fmt.Errorf("git merge-tree gave an unreadable conflict entry: %q", cut(fields[i], 80))
		}
		m.Conflicts = append(m.Conflicts, e)
	}
	m.Clean = len(m.Conflicts) == 0
	i++ // the empty field ending the entries
	for i < len(fields) && fields[i] != "" {
		n, err := strconv.Atoi(fields[i])
		if err != nil || n < 0 || i+1+n+2 > len(fields) {
			return MergeTree{}, fmt.Errorf("git merge-tree gave an unreadable message: %q", cut(fields[i], 80))
		}
		msg := MergeMessage{Paths: append([]string(nil), fields[i+1:i+1+n]...)}
		msg.Type = fields[i+1+n]
		msg.Text = strings.TrimSuffix(fields[i+2+n], "\n")
		m.Messages = append(m.Messages, msg)
		i += n + 3
	}
	return m, nil
}

func parseConflictEntry(s string) (ConflictEntry, bool) {
	head, path, ok := strings.Cut(s, "\t")
	if !ok || path == "" {
		return ConflictEntry{}, false
	}
	parts := strings.Split(head, " ")
	if len(parts) != 3 || !isObjectID(parts[1]) {
		return ConflictEntry{}, false
	}
	stage, err := strconv.Atoi(parts[2])
	if err != nil || stage < 1 || stage > 3 {
		return ConflictEntry{}, false
	}
	return ConflictEntry{Mode: parts[0], Object: parts[1], Stage: stage, Path: path}, true
}

// isObjectID: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ConflictHunk is one conflicted region of a merged file: the lines
// between git's markers, counted from 1 in the merged file.
type ConflictHunk struct {
	// Start and End are the lines of the "<<<<<<<" and ">>>>>>>" markers.
	Start, End int
	Ours       []string
	Theirs     []string
}

// ConflictHunks reads git's conflict markers (as merge-tree writes them,
// with or without a "|||||||" base section) from a merged file's content.
// An unterminated region is dropped: it is not git's.
func ConflictHunks(content string) []ConflictHunk {
	var hunks []ConflictHunk
	var cur *ConflictHunk
	section := 0 // 1 ours, 2 base, 3 theirs
	for n, line := range strings.Split(content, "\n") {
		switch {
		case strings.HasPrefix(line, "<<<<<<< ") || line == "<<<<<<<":
			cur, section = &ConflictHunk{Start: n + 1}, 1
		case cur != nil && (strings.HasPrefix(line, "||||||| ") || line == "|||||||"):
			section = 2
		case cur != nil && line == "=======":
			section = 3
		case cur != nil && (strings.HasPrefix(line, ">>>>>>> ") || line == ">>>>>>>"):
			cur.End = n + 1
			hunks = append(hunks, *cur)
			cur, section = nil, 0
		case cur != nil && section == 1:
			cur.Ours = append(cur.Ours, line)
		case cur != nil && section == 3:
			cur.Theirs = append(cur.Theirs, line)
		}
	}
	return hunks
}
