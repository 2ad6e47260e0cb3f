package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// Import is `hermesdesk import FILE`: a session bundle becomes a read-only
// session of this data dir (docs/ARCHITECTURE.md §Bundles). Through the
// running app when there is one; otherwise straight into the journal.
func Import(args []string) int { return Default().Import(args) }

func (e *Env) Import(args []string) int {
	fs := newFlags("import", e, "hermesdesk import FILE")
	pos, err := parse(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	path, err := filepath.Abs(pos[0])
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	dir, err := e.dataDir()
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	var ses run.Session
	if c, code := e.quietConnect(dir); code == exitOK {
		if err := c.Call(e.ctx(), "POST", "/api/import", map[string]string{"path": path}, &ses); err != nil {
			return e.apiFail(err)
		}
	} else {
		j, err := journal.Open(filepath.Join(dir, stack.DBFile), journal.Options{})
		if err != nil {
			e.errorf("cannot open the data folder: %v", err)
			return exitFail
		}
		defer j.Close()
		svc := service.New(j, nil, nil, service.Options{})
		if ses, err = svc.ImportFile(e.ctx(), path); err != nil {
			e.errorf("%s", service.MessageOf(err))
			return exitFail
		}
	}
	title := ses.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(e.Stdout, "Imported %q as session %s (read-only).\n", title, ses.ID)
	return exitOK
}

// Export is `hermesdesk export SESSION [--format markdown|bundle] [--run RUN] [-o FILE]`.
func Export(args []string) int { return Default().Export(args) }

func (e *Env) Export(args []string) int {
	fs := newFlags("export", e, "hermesdesk export SESSION [--format markdown|bundle] [--run RUN] [-o FILE]")
	format := fs.String("format", "markdown", "markdown or bundle")
	runID := fs.String("run", "", "export only this run")
	out := fs.String("o", "", "write to FILE (default: the suggested name in the current folder)")
	pos, err := parse(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	c, code := e.connect()
	if code != exitOK {
		return code
	}
	var ex service.Export
	q := "/api/sessions/" + url.PathEscape(pos[0]) + "/export?" + url.Values{"format": {*format}, "run": {*runID}}.Encode()
	if err := c.Call(e.ctx(), "GET", q, nil, &ex); err != nil {
		return e.apiFail(err)
	}
	dst := *out
	if dst == "" {
		dst = ex.Filename
	}
	if dst == "-" {
		fmt.Fprint(e.Stdout, ex.Content)
		return exitOK
	}
	if err := os.WriteFile(dst, []byte(ex.Content), 0o600); err != nil {
		e.errorf("cannot write %s: %v", dst, err)
		return exitFail
	}
	fmt.Fprintf(e.Stdout, "Wrote %s\n", dst)
	return exitOK
}

// quietConnect is connect for a command that can go on without the app.
func (e *Env) quietConnect(dir string) (*httpapi.Client, int) {
	c, err := e.reach(dir)
	if err != nil {
		if !errors.Is(err, httpapi.ErrNotRunning) {
			e.errorf("cannot reach Hermes Desk, importing straight into the data folder: %v", err)
		}
		return nil, exitFail
	}
	return c, exitOK
}
