package cli

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

const schedulesUsage = `hermesdesk schedules ls | add --when WHEN [--agent A] [--project DIR] [--name N] [--continue] [--skip-missed] [--paused] "prompt" | rm ID | pause ID | resume ID | run ID | history ID`

// Schedules runs the subcommand in e.
func (e *Env) Schedules(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, "usage: "+schedulesUsage)
		return exitUsage
	}
	switch args[0] {
	case "ls", "list":
		return e.schedulesList(args[1:])
	case "add", "new":
		return e.schedulesAdd(args[1:])
	case "rm", "delete":
		return e.scheduleOne(args[1:], "rm", "DELETE", "", nil)
	case "pause":
		f := false
		return e.scheduleOne(args[1:], "pause", "PATCH", "", service.SchedulePatch{Enabled: &f})
	case "resume":
		t := true
		return e.scheduleOne(args[1:], "resume", "PATCH", "", service.SchedulePatch{Enabled: &t})
	case "run":
		return e.scheduleOne(args[1:], "run", "POST", "/run", nil)
	case "history":
		return e.scheduleHistory(args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, "usage: "+schedulesUsage)
		return exitOK
	}
	e.errorf("unknown command %q; usage: %s", "schedules "+args[0], schedulesUsage)
	return exitUsage
}

func (e *Env) schedulesList(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(e.Stderr, "usage: hermesdesk schedules ls")
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	var ss []service.ScheduleView
	if err := c.Call(e.ctx(), "GET", "/api/schedules", nil, &ss); err != nil {
		return e.apiFail(err)
	}
	if len(ss) == 0 {
		fmt.Fprintln(e.Stdout, `No schedules yet. Add one: hermesdesk schedules add --when "every weekday at 9:00" "your prompt"`)
		return exitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tWHEN\tAGENT\tNEXT\tLAST\tSTATUS")
	for _, s := range ss {
		next := "paused"
		if s.Enabled {
			next = "-"
			if s.NextDue != nil {
				next = when(*s.NextDue)
			}
		}
		last, status := "-", "-"
		if f := s.LastFiring; f != nil {
			last, status = when(f.At), firingStatus(*f)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, oneLine(s.Name, 40), whenText(s.Schedule), s.Agent, next, last, status)
	}
	tw.Flush()
	return exitOK
}

func whenText(s schedule.Schedule) string {
	if s.Phrase != "" {
		return oneLine(s.Phrase, 40)
	}
	if s.At != nil {
		return "once on " + when(*s.At)
	}
	return s.Cron
}

func firingStatus(f schedule.Firing) string {
	st := strings.ReplaceAll(f.Status, "_", " ")
	if f.Reason != "" && f.Status != "missed" {
		st += ": " + oneLine(f.Reason, 60)
	}
	return st
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func (e *Env) schedulesAdd(args []string) int {
	fs := newFlags("schedules add", e, `hermesdesk schedules add --when WHEN [flags] "prompt"`)
	whenF := fs.String("when", "", `when to run: "every weekday at 9:00", "every 2 hours", "in 10 minutes", "tomorrow at 9am", "once on 2026-12-01 at 18:00" or a cron expression`)
	name := fs.String("name", "", "a name for the list (default: the prompt's first line)")
	agent := fs.String("agent", "", "agent to run (default: the first installed, else the demo agent)")
	project := fs.String("project", "", "project folder (default: the current directory)")
	model := fs.String("model", "", "model, where the agent has a choice")
	tz := fs.String("timezone", "", "IANA time zone of WHEN (default: this computer's)")
	cont := fs.Bool("continue", false, "continue one session with every firing (default: a fresh session each time)")
	skip := fs.Bool("skip-missed", false, "skip firings missed while the computer slept or Hermes Desk was not running (default: run once)")
	paused := fs.Bool("paused", false, "add it paused")
	pos, c, code := e.parseConnect(fs, args, one)
	if c == nil {
		return code
	}
	ctx := e.ctx()
	p, code := e.projectFor(ctx, c, *project)
	if code != exitOK {
		return code
	}
	if *agent == "" {
		if *agent, code = e.pickAgent(ctx, c); code != exitOK {
			return code
		}
	}
	enabled := !*paused
	req := service.ScheduleRequest{Name: *name, Prompt: pos[0], Agent: *agent, Model: *model, ProjectID: p.ID,
		When: *whenF, Timezone: *tz, Target: schedule.TargetFresh, Missed: schedule.MissedRunOnce, Enabled: &enabled}
	if *cont {
		req.Target = schedule.TargetContinue
	}
	if *skip {
		req.Missed = schedule.MissedSkip
	}
	var s service.ScheduleView
	if err := c.Call(ctx, "POST", "/api/schedules", req, &s); err != nil {
		return e.apiFail(err)
	}
	fmt.Fprintf(e.Stdout, "Added schedule %s (%s).\n", s.ID, whenText(s.Schedule))
	if s.NextDue != nil {
		fmt.Fprintf(e.Stdout, "Next run: %s\n", when(*s.NextDue))
	} else if !s.Enabled {
		fmt.Fprintln(e.Stdout, "It is paused: hermesdesk schedules resume "+s.ID)
	}
	return exitOK
}

func (e *Env) projectFor(ctx context.Context, c *httpapi.Client, dir string) (run.Project, int) {
	var p run.Project
	if dir == "" {
		wd, err := e.getwd()
		if err != nil {
			e.errorf("cannot tell the current directory: %v", err)
			return p, exitFail
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		e.errorf("bad project folder: %v", err)
		return p, exitFail
	}
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: dir}, &p); err != nil {
		return p, e.apiFail(err)
	}
	return p, exitOK
}

// scheduleOne is rm, pause, resume and run: one schedule id, one call.
func (e *Env) scheduleOne(args []string, verb, method, suffix string, body any) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(e.Stderr, "usage: hermesdesk schedules %s ID\n", verb)
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	path := "/api/schedules/" + url.PathEscape(args[0]) + suffix
	switch verb {
	case "run":
		var f schedule.Firing
		if err := c.Call(e.ctx(), method, path, body, &f); err != nil {
			return e.apiFail(err)
		}
		if f.RunID == "" {
			fmt.Fprintf(e.Stdout, "Not started: %s\n", firingStatus(f))
			return exitFail
		}
		fmt.Fprintf(e.Stdout, "Started run %s in session %s. Follow it: hermesdesk runs tail %s\n", f.RunID, f.SessionID, f.RunID)
		return exitOK
	case "rm":
		if err := c.Call(e.ctx(), method, path, body, nil); err != nil {
			return e.apiFail(err)
		}
		fmt.Fprintf(e.Stdout, "Deleted schedule %s (its runs stay).\n", args[0])
		return exitOK
	}
	var s service.ScheduleView
	if err := c.Call(e.ctx(), method, path, body, &s); err != nil {
		return e.apiFail(err)
	}
	if s.Enabled {
		next := "none"
		if s.NextDue != nil {
			next = when(*s.NextDue)
		}
		fmt.Fprintf(e.Stdout, "Resumed %s. Next run: %s\n", s.ID, next)
	} else {
		fmt.Fprintf(e.Stdout, "Paused %s.\n", s.ID)
	}
	return exitOK
}

func (e *Env) scheduleHistory(args []string) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(e.Stderr, "usage: hermesdesk schedules history ID")
		return exitUsage
	}
	c, code := e.connect()
	if c == nil {
		return code
	}
	var fs []schedule.Firing
	if err := c.Call(e.ctx(), "GET", "/api/schedules/"+url.PathEscape(args[0])+"/history", nil, &fs); err != nil {
		return e.apiFail(err)
	}
	if len(fs) == 0 {
		fmt.Fprintln(e.Stdout, "It has not fired yet.")
		return exitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DUE\tHANDLED\tSTATUS\tRUN\tNOTE")
	for _, f := range fs {
		note := ""
		switch {
		case f.Manual:
			note = "run now"
		case f.CatchUp:
			note = fmt.Sprintf("catch-up for %d missed", f.Missed)
		case f.Outcome == schedule.OutcomeMissed:
			note = fmt.Sprintf("%d missed", f.Missed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", when(f.DueAt), when(f.At), firingStatus(f), firstNonEmpty(f.RunID, "-"), note)
	}
	tw.Flush()
	return exitOK
}
