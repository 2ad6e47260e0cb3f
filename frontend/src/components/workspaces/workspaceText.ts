// What a workspace says to a person (docs/ARCHITECTURE.md §Workspaces):
// pure, table-tested in workspaces.test.tsx.
import type { Session, Settings, Workspace, WorkspaceDetail } from "../../transport/types";

export type WorkspaceKind = "checkout" | "worktree";

/** The setting that keeps each project's choice for new sessions (backend service.SettingWorkspaceDefault). */
export const DEFAULT_SETTING = "workspaces.default";

/** The project's default for new sessions: "worktree" only when the setting says so. */
export function defaultKind(settings: Settings | undefined, projectId: string): WorkspaceKind {
  const m = settings?.[DEFAULT_SETTING];
  return m && typeof m === "object" && (m as Record<string, unknown>)[projectId] === "worktree" ? "worktree" : "checkout";
}

/** The setting's new value with this project's default changed, the others kept. */
export function withDefault(settings: Settings | undefined, projectId: string, kind: WorkspaceKind): Record<string, string> {
  const m = settings?.[DEFAULT_SETTING];
  const kept = m && typeof m === "object" ? { ...(m as Record<string, string>) } : {};
  kept[projectId] = kind;
  return kept;
}

/** A size on disk in the units people read. */
export function sizeText(bytes: number): string {
  if (!(bytes > 0)) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1000 && u < units.length - 1) {
    n /= 1000;
    u++;
  }
  return `${u === 0 || n >= 100 ? Math.round(n) : n.toFixed(1)} ${units[u]}`;
}

/** A worktree of the project's repository the app did not make (an agent's, the person's): listed only, never archived or restored by the app. */
export function isExternal(w: Pick<Workspace, "origin">): boolean {
  return w.origin === "external";
}

/** The project's worktrees made outside Hermes Desk, in git's order. */
export function externalWorktrees(workspaces: Workspace[]): Workspace[] {
  return workspaces.filter(isExternal);
}

/** The worktree's short name: its branch without the app's prefix (an outside one without a branch: its folder's name). */
export function shortName(w: Pick<Workspace, "id" | "branch"> & { path?: string }): string {
  if (!w.id && !w.branch) return w.path?.split("/").filter(Boolean).pop() ?? "";
  const b = w.branch || w.id.replace(/^wsp_/, "");
  return b.replace(/^hermesdesk\//, "");
}

/** How the workspace stands in words, when it is not simply ready ("" then). */
export function stateWords(w: Workspace): string {
  if (isExternal(w)) return "Made outside Hermes Desk";
  switch (w.state) {
    case "claimed":
    case "created":
      return "Being made…";
    case "archived":
      return "Archived: restore it to work in it again.";
    case "gone":
      return w.note || "The worktree is gone: it was deleted or moved outside Hermes Desk.";
    case "failed":
      return w.note ? `Could not be made: ${w.note}` : "Could not be made.";
  }
  if (w.note) return w.note;
  if (w.setup_status === "running") return "Setting up…";
  if (w.setup_status === "failed") return "Its setup script failed; the worktree can still be used.";
  return "";
}

/** The chip's figures: ahead/behind its base, changed files, size on disk. */
export function figures(d: Pick<WorkspaceDetail, "ahead" | "behind" | "changed" | "size_bytes">): string[] {
  const out: string[] = [];
  if (d.ahead || d.behind) out.push(`↑${d.ahead} ↓${d.behind}`);
  out.push(d.changed === 1 ? "1 changed file" : `${d.changed} changed files`);
  out.push(sizeText(d.size_bytes));
  return out;
}

/** The chip's tooltip: everything it shortens, in full. */
export function chipTitle(w: Workspace, d?: WorkspaceDetail): string {
  const lines = [`Worktree on branch ${w.branch ?? "?"}${w.base ? `, from ${w.base}` : ""}`, w.path];
  if (d) lines.push(`${d.ahead} commits ahead of ${w.base || "its base"}, ${d.behind} behind; ${d.changed} changed files; ${sizeText(d.size_bytes)} on disk`);
  const s = stateWords(w);
  if (s) lines.push(s);
  return lines.join("\n");
}

export interface WorkspaceGroup {
  /** "" for the project's own folder. */
  id: string;
  workspace?: Workspace;
  items: Session[];
}

/**
 * A project's sessions by where they work, order kept: the project's own
 * folder first, then each worktree in the order its first session comes.
 * A session in a workspace the list does not (yet) know still gets its
 * own group, so no session disappears.
 */
export function groupByWorkspace(sessions: Session[], workspaces: Workspace[]): WorkspaceGroup[] {
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  const checkout: WorkspaceGroup = { id: "", items: [] };
  const groups = new Map<string, WorkspaceGroup>();
  for (const s of sessions) {
    const id = s.workspace_id ?? "";
    if (!id) {
      checkout.items.push(s);
      continue;
    }
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { id, workspace: byId.get(id), items: [] }));
    g.items.push(s);
  }
  return [...(checkout.items.length ? [checkout] : []), ...groups.values()];
}

/** Archived worktrees a person can still restore, newest first, within the retention. */
export function recentlyArchived(workspaces: Workspace[], now = Date.now(), days = 30): Workspace[] {
  const since = now - days * 86_400_000;
  return workspaces
    .filter((w) => w.state === "archived" && (!w.archived_at || Date.parse(w.archived_at) >= since))
    .sort((a, b) => (b.archived_at ?? "").localeCompare(a.archived_at ?? ""));
}
