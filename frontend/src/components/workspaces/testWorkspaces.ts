// Test fixtures: a worktree and a session as the service answers them, for
// the workspace tests of the components and of the shell (only tests
// import this file).
import type { Session, Workspace } from "../../transport/types";

/** A ready worktree of project p1 on hermesdesk/<id without wsp_>, from main. */
export const W = (id: string, extra: Partial<Workspace> = {}): Workspace => ({
  id,
  project_id: "p1",
  kind: "worktree",
  state: "ready",
  path: `/w/.worktrees/${id.slice(4)}`,
  branch: `hermesdesk/${id.slice(4)}`,
  base: "main",
  created_at: "2026-11-27T08:00:00Z",
  updated_at: "2026-11-27T08:00:00Z",
  ...extra,
});

/** A session of project p1 with the demo agent, updated now. */
export const S = (id: string, title: string, extra: Partial<Session> = {}): Session => ({ id, project_id: "p1", title, agent: "demo", updated_at: new Date().toISOString(), ...extra });
