package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
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
