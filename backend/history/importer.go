package history

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is what importing needs from the journal.
type Store interface {
	ListProjects(ctx context.Context) ([]run.Project, error)
	CreateProject(ctx context.Context, name, workspace string) (run.Project, error)
	ImportSession(ctx context.Context, b bundle.Bundle, o bundle.ImportOptions) (run.Session, error)
	// AppendImported adds the runs of b past those the session imported
	// under digest has (replacing its last when lastMayChange and it
	// differs); journal.ErrNotFound when there is none.
	AppendImported(ctx context.Context, digest string, b bundle.Bundle, lastMayChange bool) (run.Session, int, error)
}

// Imported is one file's outcome.
type Imported struct {
	File    string      `json:"file"`
	Session run.Session `json:"session"`
	// Created: the session is new; Added: turns stored by this call (0:
	// nothing new, importing again changes nothing).
	Created bool      `json:"created,omitempty"`
	Added   int       `json:"added"`
	Skipped []Skipped `json:"skipped,omitempty"`
}

// ImportFile reads one history file and stores what the journal does not
// have yet: a new conversation goes to the project of the folder it was
// recorded in (a project is made for a folder that has none), badged with
// where it came from; a known one gets its new turns. The cursor is the
// number of turns stored, so reading the file again adds nothing, an
// open last turn waits until the agent ends it (Session.Stored), and a last
// turn of a format without a turn-end mark is replaced when it grew
// (Session.Unmarked).
func ImportFile(ctx context.Context, st Store, f Format, path string, now time.Time) (Imported, error) {
	changed, err := modTime(path)
	if err != nil {
		return Imported{File: path}, fmt.Errorf("open %s history %s: %w", f.Agent(), path, err)
	}
	s, err := Read(f, path)
	if err != nil {
		return Imported{File: path}, err
	}
	out := Imported{File: path, Skipped: s.Skipped}
	stored := *s
	stored.Turns = s.Stored(changed, now)
	if len(stored.Turns) == 0 {
		return out, fmt.Errorf("%s holds no finished conversation yet: %w", path, ErrNotSession)
	}
	b, err := ToBundle(&stored)
	if err != nil {
		return out, fmt.Errorf("import %s: %w", path, err)
	}
	// The stored last turn may still grow only when it is the file's last
	// and the format has no turn-end mark.
	lastMayChange := s.Unmarked && len(stored.Turns) == len(s.Turns)
	ses, added, err := st.AppendImported(ctx, Digest(s.Origin), b, lastMayChange)
	if err == nil {
		out.Session, out.Added = ses, added
		return out, nil
	}
	if !errors.Is(err, journal.ErrNotFound) {
		return out, fmt.Errorf("import %s: %w", path, err)
	}
	projectID, err := projectFor(ctx, st, s.Workspace)
	if err != nil {
		return out, err
	}
	ses, err = st.ImportSession(ctx, b, bundle.ImportOptions{Source: SourceLabel(s.Origin), ProjectID: projectID,
		Digest: Digest(s.Origin), NativeSessionID: s.Origin.resumeID()})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", path, err)
	}
	out.Session, out.Created, out.Added = ses, true, len(b.Manifest.Runs)
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

// resumeID is the id the agent resumes the conversation by.
func (o Origin) resumeID() string {
	if o.ResumeID != "" {
		return o.ResumeID
	}
	return o.NativeID
}
