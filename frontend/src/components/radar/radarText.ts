// What the conflict radar says on a workspace's chip (docs/ARCHITECTURE.md
// §Conflict radar): pure, table-tested in radar.test.ts.
import type { Conflicts, Overlap, OverlapHunk } from "../../transport/types";
import { shortName } from "../workspaces/workspaceText";

/** One other workspace this one overlaps with, and the files they meet on. */
export interface OverlapWith {
  workspaceId: string;
  branch: string;
  files: Overlap["files"];
  /** Which side of the overlap this workspace is: its lines are that side's. */
  mine: "a" | "b";
}

/** The branch as people read it: without the app's prefix (the worktree chip's one short name). */
export function branchName(branch: string, id: string): string {
  return shortName({ id, branch });
}

/** The workspaces this one overlaps with, in the radar's order. */
export function overlapsOf(c: Conflicts | undefined, workspaceId: string): OverlapWith[] {
  if (!c || !workspaceId) return [];
  const out: OverlapWith[] = [];
  for (const o of c.overlaps ?? []) {
    const mine = o.a.workspace_id === workspaceId ? "a" : o.b.workspace_id === workspaceId ? "b" : undefined;
    if (!mine) continue;
    const other = mine === "a" ? o.b : o.a;
    out.push({ workspaceId: other.workspace_id, branch: branchName(other.branch, other.workspace_id), files: o.files ?? [], mine });
  }
  return out;
}

/** The badge: "Overlaps with fix-login: api/server.go", the rest counted. */
export function badgeText(list: OverlapWith[]): string {
  const first = list[0];
  if (!first) return "";
  const files = first.files.map((f) => f.path);
  let text = `Overlaps with ${first.branch}: ${files[0] ?? "a file"}`;
  if (files.length > 1) text += ` and ${files.length - 1} more ${files.length - 1 === 1 ? "file" : "files"}`;
  if (list.length > 1) text += ` (and ${list.length - 1} more ${list.length - 1 === 1 ? "workspace" : "workspaces"})`;
  return text;
}

/**
 * The sidebar's narrower badge, the file first (the branch is what the
 * ellipsis eats): "api/server.go also changed in fix-login", "3 files also
 * changed in fix-login and 1 more".
 */
export function compactBadgeText(list: OverlapWith[]): string {
  const first = list[0];
  if (!first) return "";
  const what = first.files.length === 1 ? first.files[0]!.path : `${first.files.length || "Some"} files`;
  const who = list.length > 1 ? `${first.branch} and ${list.length - 1} more` : first.branch;
  return `${what} also changed in ${who}`;
}

/** The suggested merge order as names, first to merge first, this workspace marked ("fix-login — this one"). */
export function orderNames(c: Conflicts | undefined, workspaceId: string, names: (id: string) => string): string[] {
  return (c?.order ?? []).map((id) => `${names(id)}${id === workspaceId ? " — this one" : ""}`);
}

/** A hunk's two sides as this workspace sees them: its own lines, then the other's. */
export function sidesOf(h: OverlapHunk, mine: "a" | "b"): { mine: string[]; theirs: string[] } {
  return mine === "a" ? { mine: h.a, theirs: h.b } : { mine: h.b, theirs: h.a };
}
