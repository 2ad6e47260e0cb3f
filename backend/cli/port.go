package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

func (e *Env) Import(args []string) int {
	fs := newFlags("import", e, "hermesdesk import [--project ID|FOLDER] FILE")
	project := fs.String("project", "", "file the session under this project (its id, or its folder) instead of Imported")
	pos, ok := parseFit(fs, args, one)
	if !ok {
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
	// A project named by its folder is that folder's project (made if
	// none): the person picked it here, not the bundle.
	var folder string
	if *project != "" && !strings.HasPrefix(*project, "prj_") {
		if folder, err = filepath.Abs(*project); err != nil {
			e.errorf("%v", err)
			return exitFail
		}
	}
	req := service.ImportRequest{Path: path, ProjectID: *project}
	var res service.ImportResult
	if c, code := e.quietConnect(dir); code == exitOK {
		if folder != "" {
			var p run.Project
			if err := c.Call(e.ctx(), "POST", "/api/projects", service.CreateProjectRequest{Workspace: folder}, &p); err != nil {
				return e.apiFail(err)
			}
			req.ProjectID = p.ID
		}
		if err := c.Call(e.ctx(), "POST", "/api/import", req, &res); err != nil {
			return e.apiFail(err)
		}
	} else {
		j, err := journal.Open(filepath.Join(dir, stack.DBFile), journal.Options{})
		if err != nil {
			e.errorf("cannot open the data folder: %v", err)
			return exitFail
		}
		defer j.Close()
		svc := service.NewCatalog(j, service.Options{})
		if folder != "" {
			p, err := svc.CreateProject(e.ctx(), service.CreateProjectRequest{Workspace: folder})
			if err != nil {
				e.errorf("%s", service.MessageOf(err))
				return exitFail
			}
			req.ProjectID = p.ID
		}
		if res, err = svc.ImportFile(e.ctx(), req); err != nil {
			e.errorf("%s", service.MessageOf(err))
			return exitFail
		}
	}
	title := res.Title
	if title == "" {
		title = "(untitled)"
	}
	if res.AlreadyImported {
		fmt.Fprintf(e.Stdout, "Already imported: %q is session %s; nothing changed.\n", title, res.ID)
		return exitOK
	}
	fmt.Fprintf(e.Stdout, "Imported %q as session %s (read-only).\n", title, res.ID)
	return exitOK
}

func (e *Env) Export(args []string) int {
	fs := newFlags("export", e, "hermesdesk export SESSION [--format markdown|bundle] [--run RUN] [-o FILE]")
	format := fs.String("format", "markdown", "markdown or bundle")
	runID := fs.String("run", "", "export only this run")
	out := fs.String("o", "", "write to FILE (default: the suggested name in the current folder)")
	pos, ok := parseFit(fs, args, one)
	if !ok {
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
