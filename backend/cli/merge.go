package cli

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/merge"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

const (
	mergeUsage = "hermesdesk workspaces merge ID [--strategy squash|merge|rebase] [--message M] [--preview]"
	pushUsage  = "hermesdesk workspaces push ID [--pr]"
)

// workspacesMerge previews or merges a workspace into its base
// (docs/ARCHITECTURE.md §Merge): --preview only says what would happen;
// without it the merge is applied when the preview allows it, and a
// refusal is its sentence (exit code of a conflict).
func (e *Env) workspacesMerge(args []string) int {
	fs := newFlags("workspaces merge", e, mergeUsage)
	strategy := fs.String("strategy", "squash", "squash, merge or rebase")
	message := fs.String("message", "", "the commit message (default: drafted from the session and its runs)")
	preview := fs.Bool("preview", false, "only say what the merge would do")
	pos, c, code := e.parseConnect(fs, args, one)
	if c == nil {
		return code
	}
	base := "/api/workspaces/" + url.PathEscape(pos[0]) + "/merge"
	req := service.MergeRequest{Strategy: *strategy, Message: *message}
	if *preview {
		var p merge.Preview
		if err := c.Call(e.ctx(), "POST", base+"/preview", req, &p); err != nil {
			return e.apiFail(err)
		}
		e.printPreview(p)
		if p.Refusal != "" {
			return exitFail
		}
		return exitOK
	}
	var res merge.Result
	if err := c.Call(e.ctx(), "POST", base, req, &res); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stdout, "Merged into %s (%s): %s → %s, %d files.\nThe old %s is kept at %s.\n",
		termSafe(res.Base), res.Strategy, short(res.OldBase), short(res.NewBase), len(res.Files), termSafe(res.Base), termSafe(res.Backup))
	if res.OfferArchive {
		fmt.Fprintf(e.Stdout, "The work is home: archive the workspace with `hermesdesk workspaces archive %s`.\n", termSafe(res.WorkspaceID))
	}
	return exitOK
}

func (e *Env) printPreview(p merge.Preview) {
	state := "clean"
	if !p.Clean {
		state = "conflicting"
	}
	fmt.Fprintf(e.Stdout, "Merge into %s (%s): %s, %d files change.\n", termSafe(p.Base), p.Strategy, state, len(p.Files))
	for _, f := range p.Files {
		fmt.Fprintf(e.Stdout, "  %s\n", termSafe(f))
	}
	for _, c := range p.Conflicts {
		fmt.Fprintf(e.Stdout, "conflict: %s\n", termSafe(c.Path))
		for _, m := range c.Messages {
			fmt.Fprintf(e.Stdout, "  %s\n", termSafe(m))
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintln(e.Stdout, termSafe(n))
	}
	if p.Message != "" {
		fmt.Fprintf(e.Stdout, "Message:\n%s", termSafe(p.Message))
	}
	if p.Refusal != "" {
		fmt.Fprintf(e.Stdout, "Cannot merge: %s\n", termSafe(p.Refusal))
	}
}

// workspacesPush pushes the workspace's branch, and with --pr opens a
// pull request through gh (drafted from the runs).
func (e *Env) workspacesPush(args []string) int {
	fs := newFlags("workspaces push", e, pushUsage)
	pr := fs.Bool("pr", false, "also open a pull request through gh")
	pos, c, code := e.parseConnect(fs, args, one)
	if c == nil {
		return code
	}
	path := "/api/workspaces/" + url.PathEscape(pos[0])
	if *pr {
		var res merge.PullRequest
		if err := c.Call(e.ctx(), "POST", path+"/pr", service.PullRequestRequest{}, &res); err != nil {
			return e.apiFail(err)
		}
		fmt.Fprintf(e.Stdout, "Opened %s\n", termSafe(res.URL))
		return exitOK
	}
	var res merge.Pushed
	if err := c.Call(e.ctx(), "POST", path+"/push", nil, &res); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stdout, "Pushed %s to %s.\n", termSafe(res.Branch), termSafe(res.Remote))
	return exitOK
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return strings.TrimSpace(commit)
}
