package cli

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

const askUsage = `hermesdesk ask [--agent A] [--project DIR] [--session ID] [--worktree [--base BRANCH]] [--json] "message"`

// preferredAgents is the default pick, in order, among healthy agents.
var preferredAgents = []string{"hermes", "claude", "codex", "gemini"}

// Ask starts a run in a project (the folder, default the working dir) and
// streams it. Ctrl-C detaches (the run goes on); a second Ctrl-C within
// DetachWindow cancels it.
func (e *Env) Ask(args []string) int {
	fs := newFlags("ask", e, askUsage)
	agent := fs.String("agent", "", "agent to ask (default: the first installed of "+strings.Join(preferredAgents, ", ")+", else the demo agent)")
	project := fs.String("project", "", "project folder (default: the current directory)")
	sessionID := fs.String("session", "", "continue this session instead of starting a new one")
	raw := fs.Bool("json", false, "print each event as one JSON line")
	worktree := fs.Bool("worktree", false, "work in a new git worktree of the project (its own branch), not in the checkout")
	base := fs.String("base", "", "with --worktree: the branch to start from (default: the checkout's current branch)")
	pos, err := parse(fs, args)
	if err != nil {
		return exitUsage
	}
	if (*base != "" && !*worktree) || (*worktree && *sessionID != "") {
		e.errorf("--base goes with --worktree, and --worktree makes a new session (not with --session)")
		return exitUsage
	}
	ws := workspaceChoice{worktree: *worktree, base: *base}
	msg := strings.TrimSpace(strings.Join(pos, " "))
	if msg == "" {
		fs.Usage()
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	ctx := e.ctx()
	ses, code := e.askSession(ctx, c, *sessionID, *project, *agent, msg, ws)
	if code != exitOK {
		return code
	}
	var res run.StartResult
	req := run.StartRequest{SessionID: ses.ID, Message: msg, ClientRequestID: service.NewRequestID()}
	if err := c.Call(ctx, "POST", "/api/runs", req, &res); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stderr, "Asking %s (run %s). Ctrl-C detaches; Ctrl-C twice cancels.\n", termSafe(e.agentName(ctx, c, ses.Agent)), res.RunID)
	return e.streamAsk(c, res.RunID, *raw)
}

// workspaceChoice is where a new session works: the checkout, or a new
// worktree from base (docs/ARCHITECTURE.md §Workspaces).
type workspaceChoice struct {
	worktree bool
	base     string
}

// askSession returns the session to ask in: the given one, or a new one
// in the project of dir (created, or reused by folder).
func (e *Env) askSession(ctx context.Context, c *httpapi.Client, sessionID, dir, agent, msg string, ws workspaceChoice) (run.Session, int) {
	var ses run.Session
	if sessionID != "" {
		if err := c.Call(ctx, "GET", "/api/sessions/"+url.PathEscape(sessionID), nil, &ses); err != nil {
			return ses, e.apiFail(err)
		}
		return ses, exitOK
	}
	p, code := e.projectFor(ctx, c, dir)
	if code != exitOK {
		return ses, code
	}
	if agent == "" {
		var code int
		if agent, code = e.pickAgent(ctx, c); code != exitOK {
			return ses, code
		}
	}
	req := service.CreateSessionRequest{ProjectID: p.ID, Agent: agent, Title: title(msg)}
	if ws.worktree {
		req.Workspace, req.Base = "worktree", ws.base
	}
	if err := c.Call(ctx, "POST", "/api/sessions", req, &ses); err != nil {
		return ses, e.apiFail(err)
	}
	if ses.WorkspaceID != "" {
		var w run.Workspace
		if err := c.Call(ctx, "GET", "/api/workspaces/"+url.PathEscape(ses.WorkspaceID), nil, &w); err == nil {
			fmt.Fprintf(e.Stderr, "Working in the worktree %s on branch %s (from %s).\n", termSafe(w.Path), termSafe(w.Branch), termSafe(w.Base))
		}
	}
	return ses, exitOK
}

// agentName is the name people see for agent id, as the app shows it (the
// service's one lookup, GET /api/agents' display_name); the id if unknown.
func (e *Env) agentName(ctx context.Context, c *httpapi.Client, id string) string {
	var as []service.AgentInfo
	if c.Call(ctx, "GET", "/api/agents", nil, &as) == nil {
		for _, a := range as {
			if a.Name == id && a.DisplayName != "" {
				return a.DisplayName
			}
		}
	}
	return id
}

func (e *Env) pickAgent(ctx context.Context, c *httpapi.Client) (string, int) {
	var as []service.AgentInfo
	if err := c.Call(ctx, "GET", "/api/agents", nil, &as); err != nil {
		return "", e.apiFail(err)
	}
	ok := map[string]bool{}
	for _, a := range as {
		ok[a.Name] = a.OK
	}
	for _, n := range preferredAgents {
		if ok[n] {
			return n, exitOK
		}
	}
	if _, known := ok["demo"]; known {
		fmt.Fprintln(e.Stderr, "No AI agent is installed; using the demo agent (no AI). Pick one with --agent.")
		return "demo", exitOK
	}
	e.errorf("no agent is installed; see `hermesdesk` → Agents")
	return "", exitFail
}

// title is the message's first line, shortened, for the session list —
// its secrets masked first, as the stored message's are (a title is shown
// everywhere and never redacted later).
func title(msg string) string {
	t, _, _ := strings.Cut(msg, "\n")
	t = strings.TrimSpace(redact.String(t))
	if len(t) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut] + "…"
	}
	return t
}

// streamAsk follows the run until done. The first Ctrl-C detaches; a second
// one within the window cancels the run.
func (e *Env) streamAsk(c *httpapi.Client, runID string, raw bool) int {
	ctx, detach := context.WithCancel(e.ctx())
	defer detach()
	sigs, stop := e.signals()
	defer stop()
	detached := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			close(detached)
			detach()
		case <-ctx.Done():
		}
	}()
	r := &renderer{out: e.Stdout, err: e.Stderr, raw: raw, runID: runID}
	err := c.Follow(ctx, runID, 0, r.event)
	select {
	case <-detached:
	default:
		if err != nil {
			return e.apiFail(err)
		}
		return r.summary()
	}
	r.endLine()
	fmt.Fprintf(e.Stderr, "Detached; the run goes on. Follow it with: hermesdesk runs tail %s\n", runID)
	fmt.Fprintf(e.Stderr, "Press Ctrl-C again within %v to cancel it.\n", e.detachWindow())
	t := time.NewTimer(e.detachWindow())
	defer t.Stop()
	select {
	case <-sigs:
		if code := e.cancelRun(c, runID); code != exitOK {
			return code
		}
		return exitCancelled
	case <-t.C:
		return exitOK
	case <-e.ctx().Done():
		return exitOK
	}
}
