package service

import (
	"bytes"
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// SettingWorkspaceDefault is where each project's new sessions work by
// default: {"<project id>": "checkout"|"worktree"}. The new-session view
// preselects it and offers to change it (docs/ARCHITECTURE.md
// §Workspaces); a session still says its choice in POST /api/sessions.
const SettingWorkspaceDefault = "workspaces.default"

// SettingWorktreeLocation is where new worktrees are made: "repo" (the
// default) or "data" (the data dir); the stack reads it at each creation.
const SettingWorktreeLocation = "workspaces.location"

// checkWorkspaceSetting refuses a workspaces.default that is not a map of
// project ids to "checkout" or "worktree"; null clears it.
func checkWorkspaceSetting(key string, v json.RawMessage) error {
	if key == SettingWorktreeLocation {
		var where string
		if s := string(bytes.TrimSpace(v)); s == "null" {
			return nil
		}
		if json.Unmarshal(v, &where) != nil || where != workspaces.LocationRepo && where != workspaces.LocationData {
			return badRequest("%s: say \"repo\" (worktrees in the repository's .worktrees folder) or \"data\" (in the data dir)", key)
		}
		return nil
	}
	if key != SettingWorkspaceDefault {
		return nil
	}
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(v, &m); err != nil {
		return badRequest("%s: give each project's choice as {\"<project id>\": \"checkout\" or \"worktree\"}", key)
	}
	for id, kind := range m {
		if id == "" || len(id) > MaxNameBytes {
			return badRequest("%s: a project id is empty or too long", key)
		}
		if kind != workspaces.KindCheckout && kind != workspaces.KindWorktree {
			return badRequest("%s: a project's default must be \"checkout\" or \"worktree\", not %q", key, kind)
		}
	}
	return nil
}
