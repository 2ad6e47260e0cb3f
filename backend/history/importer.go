package history

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is what importing needs from the journal.
type Store interface {
	ListProjects(ctx context.Context) ([]run.Project, error)
	CreateProject(ctx context.Context, name, workspace string) (run.Project, error)
	ImportSession(ctx context.Context, b bundle.Bundle, o bundle.ImportOptions) (run.Session, error)
}

// Imported is one file's outcome.
type Imported struct {
	File    string      `json:"file"`
	Session run.Session `json:"session"`
	// Already: this conversation was imported before; nothing was stored.
	Already bool      `json:"already,omitempty"`
	Skipped []Skipped `json:"skipped,omitempty"`
}

// ImportFile reads one history file and stores it in the project of the
// folder it was recorded in (a project is made for a folder that has none),
// badged with where it came from. Importing it again stores nothing.
func ImportFile(ctx context.Context, st Store, f Format, path string) (Imported, error) {
	s, err := Read(f, path)
	if err != nil {
		return Imported{File: path}, err
	}
	out := Imported{File: path, Skipped: s.Skipped}
	if len(s.Turns) == 0 {
		return out, fmt.Errorf("%s holds no conversation yet: %w", path, ErrNotSession)
	}
	b, err := ToBundle(s)
	if err != nil {
		return out, fmt.Errorf("import %s: %w", path, err)
	}
	projectID, err := projectFor(ctx, st, s.Workspace)
	if err != nil {
		return out, err
	}
	ses, err := st.ImportSession(ctx, b, bundle.ImportOptions{Source: SourceLabel(s.Origin), ProjectID: projectID,
		Digest: Digest(s.Origin), NativeSessionID: s.Origin.NativeID})
	out.Session = ses
	if errors.Is(err, bundle.ErrAlreadyImported) {
		out.Already = true
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("import %s: %w", path, err)
	}
	return out, nil
}

// projectFor is the project whose folder is workspace, made when none is;
// a session recorded nowhere known goes to the Imported place ("").
func projectFor(ctx context.Context, st Store, workspace string) (string, error) {
	if workspace == "" || !filepath.IsAbs(workspace) {
		return "", nil
	}
	workspace = filepath.Clean(workspace)
	ps, err := st.ListProjects(ctx)
	if err != nil {
		return "", fmt.Errorf("find the project of %s: %w", workspace, err)
	}
	for _, p := range ps {
		if p.Workspace != "" && filepath.Clean(p.Workspace) == workspace {
			return p.ID, nil
		}
	}
	p, err := st.CreateProject(ctx, filepath.Base(workspace), workspace)
	if err != nil {
		return "", fmt.Errorf("make a project for %s: %w", workspace, err)
	}
	return p.ID, nil
}
