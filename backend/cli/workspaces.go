package cli

import (
	"fmt"
	"net/url"
	"strings"
	"text/tabwriter"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

const workspacesUsage = "hermesdesk workspaces ls [--project DIR] | workspaces archive ID | workspaces restore ID | workspaces merge ID [--strategy S] [--message M] [--preview] | workspaces push ID [--pr] | " + reviewUsage

// Workspaces lists, archives and restores a project's workspaces
// (docs/ARCHITECTURE.md §Workspaces).
func (e *Env) Workspaces(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, "usage: "+workspacesUsage)
		return exitUsage
	}
	switch args[0] {
	case "ls", "list":
		return e.workspacesList(args[1:])
	case "archive":
		return e.workspaceOne(args[1:], "archive")
	case "restore":
		return e.workspaceOne(args[1:], "restore")
	case "review":
		return e.workspaceReview(args[1:]) // review.go
	case "merge":
		return e.workspacesMerge(args[1:])
	case "push":
		return e.workspacesPush(args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, "usage: "+workspacesUsage)
		return exitOK
	}
	e.errorf("unknown command %q; usage: %s", "workspaces "+args[0], workspacesUsage)
	return exitUsage
}

func (e *Env) workspacesList(args []string) int {
	fs := newFlags("workspaces ls", e, "hermesdesk workspaces ls [--project DIR]")
	project := fs.String("project", "", "project folder (default: the current directory)")
	_, c, code := e.parseConnect(fs, args, none)
	if c == nil {
		return code
	}
	ctx := e.ctx()
	p, code := e.projectFor(ctx, c, *project)
	if code != exitOK {
		return code
	}
	var list []run.Workspace
	if err := c.Call(ctx, "GET", "/api/projects/"+url.PathEscape(p.ID)+"/workspaces", nil, &list); err != nil {
		return e.apiFail(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(e.Stdout, "No worktrees yet: every session works in the checkout. `hermesdesk ask --worktree` makes one.")
		return exitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKSPACE\tSTATE\tBRANCH\tBASE\tPATH\tNOTE")
	for _, w := range list {
		id, state := w.ID, w.State
		if w.Origin == "external" {
			// Listed only: no id the app could archive or restore.
			id, state = "-", "outside"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", id, state, termSafe(w.Branch), termSafe(w.Base), termSafe(w.Path),
			termSafe(strings.ReplaceAll(w.Note, "\n", " ")))
	}
	tw.Flush()
	return exitOK
}

// workspaceOne is archive and restore: one workspace id, one call.
func (e *Env) workspaceOne(args []string, verb string) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(e.Stderr, "usage: hermesdesk workspaces %s ID\n", verb)
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	var w run.Workspace
	if err := c.Call(e.ctx(), "POST", "/api/workspaces/"+url.PathEscape(args[0])+"/"+verb, nil, &w); err != nil {
		return e.apiFail(err)
	}
	switch verb {
	case "archive":
		fmt.Fprintf(e.Stdout, "Archived %s: its folder is gone, its files are kept (restore with `hermesdesk workspaces restore %s`).\n%s\n",
			w.ID, w.ID, termSafe(w.Note))
	default:
		fmt.Fprintf(e.Stdout, "Restored %s at %s on branch %s.\n", w.ID, termSafe(w.Path), termSafe(w.Branch))
	}
	return exitOK
}
