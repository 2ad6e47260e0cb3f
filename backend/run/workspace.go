package run

import "time"

// Workspace is where a session's agent works: the project's checkout or a
// git worktree Hermes Desk made of it (docs/ARCHITECTURE.md §Workspaces).
// backend/workspaces owns its life; the journal keeps it.
type Workspace struct {
	ID        string `json:"id"`
	ProjectID string `json:"project_id"`
	// Kind is "checkout" or "worktree".
	Kind string `json:"kind"`
	// State is claimed, created, ready, archived, gone or failed
	// (backend/workspaces).
	State string `json:"state"`
	// Path is the folder the agent works in.
	Path string `json:"path"`
	// Branch is the worktree's branch (hermesdesk/<slug>).
	Branch string `json:"branch,omitempty"`
	// Base is the branch (or commit) it was made from; BaseCommit the
	// commit that was at creation.
	Base       string `json:"base,omitempty"`
	BaseCommit string `json:"base_commit,omitempty"`
	// Port starts the block of ten ports its processes may use.
	Port int `json:"port,omitempty"`
	// Setup is the setup step: the file the script came from, its status
	// ("", running, done, failed, none) and its output.
	SetupSource string `json:"setup_source,omitempty"`
	SetupStatus string `json:"setup_status,omitempty"`
	SetupOutput string `json:"setup_output,omitempty"`
	// Note says in words what happened last that a person should know:
	// finished or rolled back after a crash, moved or deleted outside the
	// app, a setup that failed.
	Note string `json:"note,omitempty"`
	// Origin is "external" for a worktree of the project's repository
	// that git lists and Hermes Desk did not make (an agent's or the
	// person's own): listed, never archived or restored by the app, never
	// journaled. Empty for the app's own.
	Origin     string     `json:"origin,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
}
