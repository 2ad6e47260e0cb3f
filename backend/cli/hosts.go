package cli

import (
	"fmt"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

const hostsUsage = "hermesdesk hosts ls | hosts add USER@HOST|ALIAS | hosts rm ID"

// Hosts lists, adds and removes remote hosts (docs/ARCHITECTURE.md
// §Hosts), through the running app's API like every command.
func (e *Env) Hosts(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, "usage: "+hostsUsage)
		return exitUsage
	}
	switch args[0] {
	case "ls", "list":
		return e.hostsList(args[1:])
	case "add":
		return e.hostsAdd(args[1:])
	case "rm", "remove":
		return e.hostsRemove(args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, "usage: "+hostsUsage)
		return exitOK
	}
	e.errorf("unknown command %q; usage: %s", "hosts "+args[0], hostsUsage)
	return exitUsage
}

func (e *Env) hostsList(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(e.Stderr, "usage: hermesdesk hosts ls")
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	var list []hosts.Host
	if err := c.Call(e.ctx(), "GET", "/api/hosts", nil, &list); err != nil {
		return e.apiFail(err)
	}
	if len(list) == 0 {
		fmt.Fprintln(e.Stdout, "No remote hosts yet: `hermesdesk hosts add USER@HOST` adds one.")
		return exitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tTARGET\tSTATUS\tPLATFORM\tVERSION\tLAST SEEN\tNOTE")
	for _, h := range list {
		seen := "-"
		if !h.LastSeen.IsZero() {
			seen = h.LastSeen.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s/%s\t%s\t%s\t%s\n", h.ID, termSafe(h.Target), h.Status, termSafe(h.OS), termSafe(h.Arch),
			termSafe(h.Version), seen, termSafe(strings.ReplaceAll(h.Note, "\n", " ")))
	}
	tw.Flush()
	return exitOK
}

func (e *Env) hostsAdd(args []string) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(e.Stderr, "usage: hermesdesk hosts add USER@HOST|ALIAS")
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	var h hosts.Host
	if err := c.Call(e.ctx(), "POST", "/api/hosts", service.AddHostRequest{Target: args[0]}, &h); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stdout, "Added %s as %s (%s/%s): reachable over ssh, home writable.\n", termSafe(h.Target), h.ID, termSafe(h.OS), termSafe(h.Arch))
	return exitOK
}

func (e *Env) hostsRemove(args []string) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(e.Stderr, "usage: hermesdesk hosts rm ID")
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	if err := c.Call(e.ctx(), "DELETE", "/api/hosts/"+url.PathEscape(args[0]), nil, nil); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stdout, "Removed %s. Nothing on the host was deleted; what runs there goes on.\n", args[0])
	return exitOK
}
