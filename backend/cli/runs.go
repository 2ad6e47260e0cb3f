package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"text/tabwriter"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

const runsUsage = "hermesdesk runs ls [--active] [--limit N] | runs tail RUN [--after N] [--json] | runs cancel RUN | runs resume RUN | runs undo RUN"

// Runs runs the subcommand in e.
func (e *Env) Runs(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, "usage: "+runsUsage)
		return exitUsage
	}
	switch args[0] {
	case "ls", "list":
		return e.runsList(args[1:])
	case "tail", "follow":
		return e.runsTail(args[1:])
	case "cancel", "stop":
		return e.runsCancel(args[1:])
	case "resume":
		return e.runsResume(args[1:])
	case "undo":
		return e.runsUndo(args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, "usage: "+runsUsage)
		return exitOK
	}
	e.errorf("unknown command %q; usage: %s", "runs "+args[0], runsUsage)
	return exitUsage
}

func (e *Env) runsList(args []string) int {
	fs := newFlags("runs ls", e, "hermesdesk runs ls [--active] [--limit N]")
	active := fs.Bool("active", false, "only runs that have not ended")
	limit := fs.Int("limit", 30, "at most this many runs, newest first")
	_, c, code := e.parseConnect(fs, args, func(pos []string) bool { return none(pos) && *limit > 0 })
	if c == nil {
		return code
	}
	q := url.Values{"limit": {fmt.Sprint(*limit)}}
	if *active {
		q.Set("status", "active")
	}
	path := "/api/runs?" + q.Encode()
	var runs []run.Run
	if err := c.Call(e.ctx(), "GET", path, nil, &runs); err != nil {
		return e.apiFail(err)
	}
	if len(runs) == 0 {
		if *active {
			fmt.Fprintln(e.Stdout, "No active runs.")
		} else {
			fmt.Fprintln(e.Stdout, "No runs yet.")
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTATUS\tAGENT\tEVENTS\tSTARTED\tSESSION")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Status, termSafe(r.Agent), r.LastSeq, when(r.CreatedAt), r.SessionID)
	}
	tw.Flush()
	return exitOK
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}

func (e *Env) runsTail(args []string) int {
	fs := newFlags("runs tail", e, "hermesdesk runs tail RUN [--after N] [--json]")
	after := fs.Int64("after", 0, "start after this event seq (0: from the start)")
	raw := fs.Bool("json", false, "print each event as one JSON line")
	pos, c, code := e.parseConnect(fs, args, func(pos []string) bool { return one(pos) && *after >= 0 })
	if c == nil {
		return code
	}
	runID := pos[0]
	ctx, cancel := context.WithCancel(e.ctx())
	defer cancel()
	sigs, stop := e.signals()
	defer stop()
	go func() {
		select {
		case <-sigs:
			cancel() // watching ends; the run never does
		case <-ctx.Done():
		}
	}()
	r := &renderer{out: e.Stdout, err: e.Stderr, raw: *raw, runID: runID}
	err := c.Follow(ctx, runID, *after, r.event)
	if errors.Is(err, context.Canceled) && e.ctx().Err() == nil {
		r.endLine()
		return exitCancelled
	}
	if err != nil {
		return e.apiFail(err)
	}
	return r.summary()
}

func (e *Env) runsCancel(args []string) int {
	c, id, code := e.oneRun("cancel", args)
	if c == nil {
		return code
	}
	return e.cancelRun(c, id)
}

// oneRun parses `hermesdesk runs VERB RUN` and connects: the verbs that
// act on one run share it. A nil client comes with the exit code.
func (e *Env) oneRun(verb string, args []string) (*httpapi.Client, string, int) {
	fs := newFlags("runs "+verb, e, "hermesdesk runs "+verb+" RUN")
	pos, c, code := e.parseConnect(fs, args, one)
	if c == nil {
		return nil, "", code
	}
	return c, pos[0], exitOK
}

// runsResume starts a run that waits for its quota now, not at the reset
// (docs/ARCHITECTURE.md §Usage, parked runs).
func (e *Env) runsResume(args []string) int {
	c, id, code := e.oneRun("resume", args)
	if c == nil {
		return code
	}
	return e.runControl(c, id, "resume", "Resuming", "is not waiting for quota")
}

type caller interface {
	Call(ctx context.Context, method, path string, in, out any) error
}

func (e *Env) cancelRun(c caller, runID string) int {
	return e.runControl(c, runID, "cancel", "Cancelling", "is not running")
}

// runControl posts the control op on runID and says how it went: doing
// when accepted, "RUN notActive" when there was nothing to do.
func (e *Env) runControl(c caller, runID, op, doing, notActive string) int {
	var res run.ControlResult
	if err := c.Call(e.ctx(), "POST", "/api/runs/"+url.PathEscape(runID)+"/"+op, nil, &res); err != nil {
		return e.apiFail(err)
	}
	switch res.Status {
	case run.ControlAccepted:
		fmt.Fprintln(e.Stdout, doing+" "+runID+".")
		return exitOK
	case run.ControlNotActive:
		fmt.Fprintln(e.Stdout, runID+" "+notActive+suffix(res.Message)+".")
		return exitOK
	}
	e.errorf("cannot %s %s: %s%s", op, runID, res.Status, suffix(res.Message))
	return exitFail
}

func suffix(msg string) string {
	if msg == "" {
		return ""
	}
	return " (" + msg + ")"
}
