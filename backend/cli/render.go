package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// renderer prints a run's events for a terminal: the answer's text on
// stdout as it streams, tools, prompts and errors as short lines. With
// raw set it prints each envelope as one JSON line instead (for scripts).
type renderer struct {
	out, err io.Writer
	raw      bool
	runID    string
	midLine  bool // the last thing written to out did not end a line
	thinking bool
	done     *run.Done
}

func (r *renderer) event(ev run.Event) error {
	if r.raw {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.out, "%s\n", b)
		r.noteDone(ev)
		return err
	}
	switch ev.Type {
	case run.EventTokenDelta:
		var p run.TextDelta
		if decode(ev, &p) && p.Text != "" {
			r.thinking = false
			r.write(p.Text)
		}
	case run.EventReasoningDelta:
		if !r.thinking {
			r.thinking = true
			r.line("… thinking")
		}
	case run.EventToolStarted:
		var p run.ToolStarted
		if decode(ev, &p) {
			r.line("→ " + firstNonEmpty(p.Title, p.Name))
		}
	case run.EventToolDone:
		var p run.ToolDone
		if decode(ev, &p) && p.Status != "completed" {
			msg := "  ✗ " + p.Status
			if p.Error != "" {
				msg += ": " + p.Error
			}
			r.line(msg)
		}
	case run.EventApprovalRequest:
		var p run.ApprovalRequested
		if decode(ev, &p) {
			r.line("⚠ Approval needed: " + p.Title)
			if p.Command != "" {
				r.line("    " + p.Command)
			}
			r.line("  Answer it in Hermes Desk (run " + r.runID + ").")
		}
	case run.EventClarifyRequest:
		var p run.ClarifyRequested
		if decode(ev, &p) {
			r.line("? " + p.Question)
			r.line("  Answer it in Hermes Desk (run " + r.runID + ").")
		}
	case run.EventError:
		var p run.ErrorInfo
		if decode(ev, &p) {
			r.endLine()
			fmt.Fprintln(r.err, "error: "+termSafe(p.Message))
		}
	case run.EventNotice:
		var p run.Notice
		if decode(ev, &p) {
			r.line("note: " + p.Message)
		}
	case run.EventDone:
		r.endLine()
	}
	r.noteDone(ev)
	return nil
}

func (r *renderer) noteDone(ev run.Event) {
	if ev.Type != run.EventDone {
		return
	}
	var d run.Done
	decode(ev, &d)
	if d.Status == "" {
		d.Status = run.StatusCompleted
	}
	r.done = &d
}

// summary prints how the run ended (stderr) and returns the exit code.
func (r *renderer) summary() int {
	if r.done == nil {
		return exitOK
	}
	switch r.done.Status {
	case run.StatusCompleted:
		return exitOK
	case run.StatusCancelled:
		fmt.Fprintln(r.err, "Run cancelled.")
		return exitCancelled
	}
	msg := "Run " + string(r.done.Status)
	if r.done.Error != "" {
		msg += ": " + termSafe(r.done.Error)
	}
	fmt.Fprintln(r.err, msg+".")
	return exitFail
}

// write and line are where agent text reaches the terminal: termSafe.
func (r *renderer) write(s string) {
	s = termSafe(s)
	fmt.Fprint(r.out, s)
	r.midLine = !strings.HasSuffix(s, "\n")
}

func (r *renderer) line(s string) {
	r.endLine()
	fmt.Fprintln(r.out, termSafe(s))
}

func (r *renderer) endLine() {
	if r.midLine {
		fmt.Fprintln(r.out)
		r.midLine = false
	}
}

func decode(ev run.Event, v any) bool {
	return json.Unmarshal(ev.Payload, v) == nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
