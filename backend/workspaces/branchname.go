package workspaces

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// BranchPrefix starts every branch Hermes Desk makes.
const BranchPrefix = "hermesdesk/"

// maxTitleSlug bounds the title's part of a branch name: long enough to
// say what the work is, short enough for a sidebar and `git branch`.
const maxTitleSlug = 24

// BranchFor names a new worktree's branch after the first session's title,
// so a person reading `git branch`, a pull request or the radar sees what
// the work is: hermesdesk/<title slug ≤ 24>-<4 characters of the id>. A
// title with no usable letters (empty, only symbols, a script without a
// Latin spelling) keeps the id's name, hermesdesk/<slug>. When taken says
// the name is an existing branch, the whole id is used instead of four
// characters. It is decided once, at creation, and recorded in the row
// before `git worktree add`: recovery and archive read the row, never
// derive it again (docs/ARCHITECTURE.md §Workspaces, "Names").
func BranchFor(title, id string, taken func(branch string) bool) (string, error) {
	slug, err := Slug(id)
	if err != nil {
		return "", err
	}
	words := titleSlug(title)
	if words == "" {
		return BranchPrefix + slug, nil
	}
	name := BranchPrefix + words + "-" + slug[:min(4, len(slug))]
	if taken != nil && taken(name) {
		name = BranchPrefix + words + "-" + slug
	}
	return name, nil
}

// titleSlug is title in lowercase ASCII letters and digits joined by
// single dashes, accents dropped (é → e), cut at a word's end to at most
// maxTitleSlug characters: always a valid git ref component.
func titleSlug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(title) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
		if b.Len() > maxTitleSlug {
			break
		}
	}
	s := b.String()
	if len(s) > maxTitleSlug {
		s = s[:maxTitleSlug]
		if i := strings.LastIndexByte(s, '-'); i > 0 && b.String()[maxTitleSlug] != '-' {
			s = s[:i]
		}
	}
	return strings.Trim(s, "-")
}

// branchRef is the full ref of w's branch as its row records it (a name
// made before titles named branches is the id's; both are in the row).
func branchRef(w run.Workspace) string {
	if w.Branch == "" {
		names, _ := NamesFor("", w.ID, "")
		return names.Ref
	}
	return "refs/heads/" + w.Branch
}
