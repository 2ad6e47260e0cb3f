// What the conflict radar says on a workspace's chip (docs/ARCHITECTURE.md
// §Conflict radar): pure, table-tested in radar.test.ts.
import type { Conflicts, LineSpan, Overlap, OverlapHunk } from "../../transport/types";
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

/** A hunk's two sides as this workspace sees them: its own lines, then the other's, each with where they are in that side's own file (the radar places them; absent from an answer that could not). */
export function sidesOf(h: OverlapHunk, mine: "a" | "b"): { mine: string[]; theirs: string[]; mineLines?: LineSpan; theirLines?: LineSpan } {
  return mine === "a" ? { mine: h.a, theirs: h.b, mineLines: h.a_lines, theirLines: h.b_lines } : { mine: h.b, theirs: h.a, mineLines: h.b_lines, theirLines: h.a_lines };
}

/** Where a side's lines are, for people: "line 12", "lines 12–14", "removed before line 12" (a side with no lines there); "" when unknown. */
export function spanText(s: LineSpan | undefined): string {
  if (!s) return "";
  if (s.count === 0) return `removed before line ${s.start}`;
  return s.count === 1 ? `line ${s.start}` : `lines ${s.start}–${s.start + s.count - 1}`;
}

/** Above a hunk in the badge's menu: "Here line 5 · fix-login line 7", "Here removed before line 5 · fix-login lines 7–9"; "" when the radar placed neither side. */
export function hunkWhere(side: { mineLines?: LineSpan; theirLines?: LineSpan }, branch: string): string {
  const mine = spanText(side.mineLines);
  const theirs = spanText(side.theirLines);
  return [mine && `Here ${mine}`, theirs && `${branch} ${theirs}`].filter(Boolean).join(" · ");
}

/** The box a badge's menu is placed from: the badge on screen. */
export interface BadgeBox {
  left: number;
  top: number;
  bottom: number;
}

/**
 * Where a badge's fixed menu goes: below the badge, or above it when the
 * badge sits in the lower half of the window (the menu is at most half the
 * window tall); against the window's right edge when alignRight (the
 * header), else from the badge's left, kept inside the window.
 */
export function menuPlace(badge: BadgeBox, width: number, height: number, alignRight: boolean, menuWidth = 380, gap = 4): Record<string, number> {
  const place: Record<string, number> = badge.bottom > height / 2 ? { bottom: Math.max(0, height - badge.top + gap) } : { top: badge.bottom + gap };
  if (!alignRight) place.left = Math.max(8, Math.min(badge.left, width - Math.min(menuWidth, width - 48) - 8));
  return { ...place, marginTop: 0 };
}
