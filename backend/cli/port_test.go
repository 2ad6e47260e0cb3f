package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// `hermesdesk import` with no app running writes straight into the data
// dir; bad bundles are refused in plain words and leave nothing behind.
func TestImportWithoutTheApp(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	files := t.TempDir()
	var good bytes.Buffer
	err := bundle.Encode(&good, bundle.Bundle{Manifest: bundle.Manifest{
		Project:  bundle.Project{Name: "elsewhere", Workspace: "/nowhere"},
		Session:  run.Session{ID: "ses_x", Title: "Brought along", Agent: "demo"},
		Messages: []run.Message{{ID: "m1", Role: run.RoleUser, Content: "pineapple question"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(good.String(), `"version":1`, `"version":99`, 1)
	write := func(name, s string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, path string
		code       int
		says       string
	}{
		{"missing", filepath.Join(files, "nope.jsonl"), exitFail, "cannot open nope.jsonl: no such file"},
		{"malformed", write("bad.jsonl", "{not json\n"), exitFail, "not a Hermes Desk session bundle"},
		{"newer", write("new.jsonl", newer), exitFail, "made by a newer Hermes Desk (format 99"},
		{"good", write("good.jsonl", good.String()), exitOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			e := &Env{Stdout: &out, Stderr: &errOut, DataDir: func() (string, error) { return dir, nil }}
			if code := e.Import([]string{c.path}); code != c.code || !strings.Contains(errOut.String(), c.says) {
				t.Fatalf("exit %d, stderr %q; want %d saying %q", code, errOut.String(), c.code, c.says)
			}
			if c.code == exitOK && !strings.Contains(out.String(), `Imported "Brought along"`) {
				t.Fatalf("stdout %q", out.String())
			}
		})
	}
	// The same bundle again changes nothing and says so.
	var out, errOut bytes.Buffer
	e := &Env{Stdout: &out, Stderr: &errOut, DataDir: func() (string, error) { return dir, nil }}
	if code := e.Import([]string{filepath.Join(files, "good.jsonl")}); code != exitOK || !strings.Contains(out.String(), "Already imported") {
		t.Fatalf("second import: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	j, err := journal.Open(filepath.Join(dir, stack.DBFile), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ss, err := j.ListSessions(context.Background(), "")
	if err != nil || len(ss) != 1 || ss[0].ImportedFrom != "good.jsonl" || ss[0].ProjectID != journal.ImportedProjectID {
		t.Fatalf("sessions after the imports: %+v %v", ss, err)
	}
	hits, err := j.Search(context.Background(), "pineapple", 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("search: %+v %v", hits, err)
	}
}

// `hermesdesk import --project FOLDER` files the session under the project
// of the folder the person names (made if none), not the bundle's.
func TestImportIntoANamedProject(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	var b bytes.Buffer
	if err := bundle.Encode(&b, bundle.Bundle{Manifest: bundle.Manifest{
		Project: bundle.Project{Name: "elsewhere", Workspace: "/nowhere"},
		Session: run.Session{ID: "ses_x", Title: "Brought along", Agent: "demo"},
	}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.hdbundle.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir()
	var out, errOut bytes.Buffer
	e := &Env{Stdout: &out, Stderr: &errOut, DataDir: func() (string, error) { return dir, nil }}
	if code := e.Import([]string{"--project", folder, path}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	j, err := journal.Open(filepath.Join(dir, stack.DBFile), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ps, err := j.ListProjects(context.Background())
	if err != nil || len(ps) != 1 || ps[0].Workspace != folder {
		t.Fatalf("projects %+v %v: want only the named folder's", ps, err)
	}
	if ss, _ := j.ListSessions(context.Background(), ps[0].ID); len(ss) != 1 {
		t.Fatalf("sessions of the named project: %+v", ss)
	}
}

// `hermesdesk import` through the running app: the hostile bundle's folder
// (a project of the person's) is not where the session goes, the window's
// watch bus hears of it, and the same file again is "Already imported".
func TestImportThroughTheRunningApp(t *testing.T) {
	dataDir := newDataDir(t)
	s := startServe(t, dataDir)
	defer s.stop()
	ctx := context.Background()
	c := httpapi.NewLocalClient(httpapi.SocketPath(dataDir))
	ws := t.TempDir()
	var mine run.Project
	if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: ws}, &mine); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := bundle.Encode(&b, bundle.Bundle{Manifest: bundle.Manifest{
		Project: bundle.Project{Name: "victim", Workspace: ws},
		Session: run.Session{ID: "ses_x", Title: "Brought along", Agent: "demo"},
	}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.hdbundle.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bus, err := c.Watch(wctx, false)
	if err != nil {
		t.Fatal(err)
	}
	<-bus // the snapshot

	e, out, errOut := cliEnv(dataDir, nil)
	if code := e.Import([]string{path}); code != exitOK || !strings.Contains(out.String(), `Imported "Brought along"`) {
		t.Fatalf("import: exit %d, %q %q", code, out.String(), errOut.String())
	}
	timeout := time.After(10 * time.Second)
	for heard := false; !heard; {
		select {
		case m := <-bus:
			heard = m.Type == run.WatchSessionChanged && m.Session != nil && m.Session.Kind == run.SessionCreated
		case <-timeout:
			t.Fatal("the watch bus did not hear of the import")
		}
	}
	var ss []run.Session
	if err := c.Call(ctx, "GET", "/api/sessions?project_id="+mine.ID, nil, &ss); err != nil {
		t.Fatal(err)
	}
	if len(ss) != 0 {
		t.Fatalf("the bundle's folder filed it under the person's project: %+v", ss)
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Import([]string{path}); code != exitOK || !strings.Contains(out.String(), "Already imported") {
		t.Fatalf("second import: exit %d, %q %q", code, out.String(), errOut.String())
	}
}
