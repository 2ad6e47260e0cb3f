package cli

import (
	"fmt"
	"net/url"
	"text/tabwriter"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

const reviewUsage = "hermesdesk workspaces review ID [--diff PATH]"

// workspaceReview prints a workspace's review: its changed files against
// the merge-base with their counts and viewed marks, and the draft
// comments; --diff PATH prints one file's diff (docs/ARCHITECTURE.md
// §Review).
func (e *Env) workspaceReview(args []string) int {
	fs := newFlags("workspaces review", e, reviewUsage)
	diff := fs.String("diff", "", "print this file's diff against the base")
	pos, c, code := e.parseConnect(fs, args, one)
	if c == nil {
		return code
	}
	ctx := e.ctx()
	base := "/api/workspaces/" + url.PathEscape(pos[0]) + "/review"
	if *diff != "" {
		var f run.FileChanged
		if err := c.Call(ctx, "GET", base+"/diff?path="+url.QueryEscape(*diff), nil, &f); err != nil {
			return e.apiFail(err)
		}
		switch {
		case f.Binary:
			fmt.Fprintf(e.Stdout, "%s is a binary file: not shown.\n", termSafe(f.Path))
		case f.NotCompared != "":
			fmt.Fprintf(e.Stdout, "%s is not compared: %s.\n", termSafe(f.Path), f.NotCompared)
		default:
			fmt.Fprint(e.Stdout, termSafe(f.Diff))
		}
		return exitOK
	}
	var rv run.Review
	if err := c.Call(ctx, "GET", base, nil, &rv); err != nil {
		return e.apiFail(err)
	}
	if len(rv.Files) == 0 {
		fmt.Fprintf(e.Stdout, "No changes against %s yet.\n", termSafe(rv.Base))
		return exitOK
	}
	fmt.Fprintf(e.Stdout, "%d file(s) changed against %s (merge-base %.12s):\n", len(rv.Files), termSafe(rv.Base), rv.MergeBase)
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STATUS\t+\t-\tVIEWED\tPATH")
	for _, f := range rv.Files {
		added, removed := fmt.Sprint(f.Added), fmt.Sprint(f.Removed)
		if f.Binary || f.NotCompared != "" {
			added, removed = "bin", ""
			if f.NotCompared != "" {
				added = "large"
			}
		}
		viewed := ""
		if f.Viewed {
			viewed = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Status, added, removed, viewed, termSafe(f.Path))
	}
	tw.Flush()
	drafts := 0
	for _, cm := range rv.Comments {
		if cm.State == run.CommentDraft {
			drafts++
		}
	}
	if drafts > 0 {
		fmt.Fprintf(e.Stdout, "%d draft comment(s) not sent yet.\n", drafts)
	}
	return exitOK
}
