package changes

import (
	"bytes"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ParseDiff reads `git diff --raw -z -p --no-renames`: first one raw
// record per file (":modes ids status\0path\0", the name exactly as it is,
// whatever bytes it holds), then a NUL, then the patches in the same order.
// Names come from the records, never from the patch headers, which git
// quotes and pads (a name with a newline, a tab, a quote, a backslash or
// an escape; a tab after a name with a space). Each patch is cut at its
// "diff --git " line: no line of a patch's body can start so (they start
// with " ", "+", "-", "@" or "\").
func ParseDiff(out []byte) []run.FileChanged { return parseDiff(out, false) }

// parseDiff reads output that may have been cut (cut): the records come
// first and whole; the files whose patches were cut off are named without
// a diff, and the last patch kept is marked truncated.
func parseDiff(out []byte, cut bool) []run.FileChanged {
	type record struct{ status, path string }
	var records []record
	rest := out
	for len(rest) > 0 && rest[0] == ':' {
		meta, after, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			break
		}
		path, after, ok := bytes.Cut(after, []byte{0})
		if !ok {
			break
		}
		f := strings.Fields(string(meta))
		status := ""
		if len(f) > 0 && f[len(f)-1] != "" {
			status = f[len(f)-1][:1]
		}
		records = append(records, record{status, string(path)})
		rest = after
	}
	rest = bytes.TrimPrefix(rest, []byte{0})
	patches := splitPatches(string(rest))
	if len(patches) > len(records) || (len(patches) < len(records) && !cut) {
		patches = nil // not as expected: name the files, without diffs
	}
	out2 := make([]run.FileChanged, 0, len(records))
	for i, r := range records {
		fc := run.FileChanged{Path: r.path, Action: "modified", Source: run.SourceWorkspace}
		switch r.status {
		case "A":
			fc.Action = "created"
		case "D":
			fc.Action = "deleted"
		}
		if i < len(patches) {
			body := patches[i]
			if isBinaryPatch(body) {
				fc.Binary = true
			} else {
				fc.Added, fc.Removed = Count(body)
				fc.Diff, fc.Truncated = Truncate(body, MaxDiff)
				if cut && i == len(patches)-1 {
					fc.Truncated = true // its counts may be short too
				}
			}
		}
		out2 = append(out2, fc)
	}
	return out2
}

// splitPatches cuts git's multi-file patch into one patch per file.
func splitPatches(patch string) []string {
	if patch == "" {
		return nil
	}
	var out []string
	for _, part := range strings.Split("\n"+patch, "\ndiff --git ")[1:] {
		body := "diff --git " + part
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		out = append(out, body)
	}
	return out
}

// isBinaryPatch: git said so in the header, before any hunk.
func isBinaryPatch(body string) bool {
	for _, line := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			return false
		case strings.HasPrefix(line, "Binary files "), strings.HasPrefix(line, "GIT binary patch"):
			return true
		}
	}
	return false
}
