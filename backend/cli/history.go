package cli

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// History is `hermesdesk history ls | import SOURCE`: the agents' own
// conversation files (docs/ARCHITECTURE.md §History). Through the running
// app when there is one; otherwise straight into the journal.
func (e *Env) History(args []string) int {
	fs := newFlags("history", e, "hermesdesk history ls | hermesdesk history import [--mirror|--mirror=false] SOURCE")
	var mirror optBool
	fs.Var(&mirror, "mirror", "keep importing what the agent writes while the app runs (false: stop)")
	pos, ok := parseFit(fs, args, func(pos []string) bool {
		return (len(pos) == 1 && pos[0] == "ls") || (len(pos) == 2 && pos[0] == "import")
	})
	if !ok {
		return exitUsage
	}
	dir, err := e.dataDir()
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	var srcs []history.Source
	var res service.HistoryImportResult
	if c, code := e.quietConnect(dir); code == exitOK {
		if pos[0] == "ls" {
			err = c.Call(e.ctx(), "GET", "/api/history/sources", nil, &srcs)
		} else {
			err = c.Call(e.ctx(), "POST", "/api/history/import", service.HistoryImportRequest{Source: pos[1], Mirror: mirror.v}, &res)
		}
		if err != nil {
			return e.apiFail(err)
		}
	} else {
		if mirror.v != nil && *mirror.v {
			e.errorf("the mirror runs in the app: start Hermes Desk (or `hermesdesk serve`), then run this again")
			return exitFail
		}
		j, err := journal.Open(filepath.Join(dir, stack.DBFile), journal.Options{})
		if err != nil {
			e.errorf("cannot open the data folder: %v", err)
			return exitFail
		}
		defer j.Close()
		svc := service.NewCatalog(j, service.Options{})
		if pos[0] == "ls" {
			srcs, err = svc.HistorySources(e.ctx())
		} else {
			res, err = svc.ImportHistory(e.ctx(), service.HistoryImportRequest{Source: pos[1]})
		}
		if err != nil {
			e.errorf("%s", service.MessageOf(err))
			return exitFail
		}
	}
	if pos[0] == "ls" {
		if len(srcs) == 0 {
			fmt.Fprintln(e.Stdout, "No agent history found on this machine.")
		}
		for _, s := range srcs {
			last := "never"
			if !s.LastUpdate.IsZero() {
				last = s.LastUpdate.Local().Format("2006-01-02 15:04")
			}
			mirrored := "off"
			if s.Mirror {
				mirrored = "on"
			}
			fmt.Fprintf(e.Stdout, "%-8s %-12s %5d sessions  last update %s  mirror %s  %s\n", s.ID, s.Name, s.Sessions, last, mirrored, s.Root)
			for _, msg := range s.Errors {
				fmt.Fprintf(e.Stdout, "         error: %s\n", msg)
			}
		}
		return exitOK
	}
	fmt.Fprintf(e.Stdout, "Imported %d %s sessions, updated %d (%d already imported, %d with no finished conversation yet).\n",
		res.Imported, res.Source, res.Updated, res.Already, res.Skipped)
	if res.Mirror {
		fmt.Fprintln(e.Stdout, "Mirror on: what the agent writes shows in Hermes Desk while it runs.")
	}
	for _, f := range res.Failed {
		fmt.Fprintf(e.Stdout, "  not imported: %s: %s\n", f.File, f.Reason)
	}
	if len(res.Failed) > 0 {
		return exitFail
	}
	return exitOK
}

// optBool is a flag that may be absent (nil), --x or --x=false.
type optBool struct{ v *bool }

func (o *optBool) String() string {
	if o.v == nil {
		return ""
	}
	return strconv.FormatBool(*o.v)
}

func (o *optBool) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	o.v = &b
	return nil
}

func (o *optBool) IsBoolFlag() bool { return true }
