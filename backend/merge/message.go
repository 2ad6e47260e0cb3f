package merge

import (
	"fmt"
	"strings"
)

// Run is what the drafts say of one run of the workspace's sessions: the
// message the person sent it.
type Run struct {
	Message string
}

// DraftMessage drafts a squash commit's message (and a pull request's
// description) from the session's title and its runs: the title as the
// subject, then each run's first line as a bullet. The person edits it
// before merging (docs/ARCHITECTURE.md §Merge).
func DraftMessage(title string, runs []Run) string {
	subject := firstLine(title)
	var bullets []string
	seen := map[string]bool{}
	for _, r := range runs {
		line := firstLine(r.Message)
		if line == "" || seen[line] {
			continue
		}
		seen[line] = true
		bullets = append(bullets, "- "+line)
	}
	if subject == "" && len(bullets) > 0 {
		subject = strings.TrimPrefix(bullets[0], "- ")
		bullets = bullets[1:]
	}
	if subject == "" {
		subject = "Work from a Hermes Desk workspace"
	}
	if len(bullets) == 0 {
		return subject + "\n"
	}
	return subject + "\n\n" + strings.Join(bullets, "\n") + "\n"
}

// firstLine is s's first non-empty line, trimmed and cut at 72 runes (a
// subject line's width).
func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if r := []rune(line); len(r) > 72 {
				line = string(r[:71]) + "…"
			}
			return line
		}
	}
	return ""
}

// Conflict is one conflicted file and what git said about it.
type Conflict struct {
	Path     string   `json:"path"`
	Messages []string `json:"messages,omitempty"`
}

// ResolveMessage is the message of the run that resolves a conflicting
// preview with the agent: which files conflict with the base and git's
// own words for each, and what to do (bring the base's changes into the
// workspace so it merges cleanly; not to touch the base branch).
func ResolveMessage(base string, conflicts []Conflict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Merging this workspace into %s conflicts in %s:\n\n", base, plural(len(conflicts), "file"))
	for _, c := range conflicts {
		fmt.Fprintf(&b, "- %s\n", c.Path)
		for _, m := range c.Messages {
			fmt.Fprintf(&b, "  git: %s\n", firstLine(m))
		}
	}
	fmt.Fprintf(&b, "\nBring %s's changes into this workspace so it merges cleanly: run `git merge %s` here (or edit these files to keep both sides' intent), resolve every conflict, and commit. Do not change the %s branch itself.\n", base, base, base)
	return b.String()
}

// DraftPullRequest is a pull request's title and description, drafted
// like the squash message: its subject, then the runs.
func DraftPullRequest(title string, runs []Run) (string, string) {
	subject, body, _ := strings.Cut(DraftMessage(title, runs), "\n")
	return subject, strings.TrimSpace(body)
}
