// The conflict radar in the Review view (docs/ARCHITECTURE.md §Review,
// §Conflict radar): which reviewed files another active worktree changes
// too, on which of this file's lines, and the suggested merge order. Pure,
// table-tested in reviewRadar.test.ts.
import type { OverlapWith } from "../radar/radarText";
import { sidesOf } from "../radar/radarText";
import type { DiffRow } from "./reviewDiff";
import { quoteOf } from "./reviewDiff";

/** Lines of this worktree's file, from and to (inclusive, from 1). */
export interface LineRange {
  from: number;
  to: number;
}

/** Another worktree changing this file: its name and the places they meet. */
export interface FileOverlap {
  workspaceId: string;
  branch: string;
  /** Each conflicted region: this worktree's lines, the other's lines. */
  hunks: { mine: string[]; theirs: string[] }[];
}

/** The other worktrees that change path too, in the radar's order. */
export function fileOverlaps(list: readonly OverlapWith[], path: string): FileOverlap[] {
  const out: FileOverlap[] = [];
  for (const o of list) {
    const f = o.files.find((x) => x.path === path);
    if (f) out.push({ workspaceId: o.workspaceId, branch: o.branch, hunks: (f.hunks ?? []).map((h) => sidesOf(h, o.mine)) });
  }
  return out;
}

/** The paths any other worktree changes too. */
export function overlappingPaths(list: readonly OverlapWith[]): Set<string> {
  return new Set(list.flatMap((o) => o.files.map((f) => f.path)));
}

/**
 * Where this worktree's side of a conflicted region is in its file: the
 * radar gives the region's lines (its numbers are the merged file's), the
 * diff numbers this worktree's lines, so the lines are found among the
 * diff's new side — a place holding a changed line first, as a conflict
 * is something both changed. Undefined when the side is empty (a deletion)
 * or not in the diff.
 */
export function linesOf(rows: readonly DiffRow[], mine: readonly string[]): LineRange | undefined {
  if (mine.length === 0) return undefined;
  const side = rows.filter((r) => r.new !== undefined && (r.kind === "add" || r.kind === "ctx"));
  let found: LineRange | undefined;
  for (let i = 0; i + mine.length <= side.length; i++) {
    let same = true;
    let added = false;
    for (let k = 0; k < mine.length && same; k++) {
      const r = side[i + k]!;
      // Lines must follow each other: a hunk break in between is no match.
      same = quoteOf(r) === mine[k] && (k === 0 || r.new === side[i + k - 1]!.new! + 1);
      added ||= r.kind === "add";
    }
    if (!same) continue;
    const at = { from: side[i]!.new!, to: side[i + mine.length - 1]!.new! };
    if (added) return at;
    found ??= at;
  }
  return found;
}

/** "lines 12–18", "line 12", "lines 3–4 and 12–18", "lines 1, 5 and 9–10". */
export function rangesText(ranges: readonly LineRange[]): string {
  if (ranges.length === 0) return "";
  const one = (r: LineRange) => (r.from === r.to ? String(r.from) : `${r.from}–${r.to}`);
  const parts = ranges.map(one);
  const word = ranges.length === 1 && ranges[0]!.from === ranges[0]!.to ? "line" : "lines";
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${word} ${list}`;
}

/** "Also changed by fix-login: lines 12–18"; without lines found, just the name. */
export function overlapText(branch: string, ranges: readonly LineRange[]): string {
  const where = rangesText(ranges);
  return where ? `Also changed by ${branch}: ${where}` : `Also changed by ${branch}`;
}

/** The lines of this file the other worktrees change, once each, in order. */
export function overlapRanges(rows: readonly DiffRow[], o: FileOverlap): LineRange[] {
  const seen = new Set<string>();
  const out: LineRange[] = [];
  for (const h of o.hunks) {
    const r = linesOf(rows, h.mine);
    if (!r || seen.has(`${r.from}-${r.to}`)) continue;
    seen.add(`${r.from}-${r.to}`);
    out.push(r);
  }
  return out.sort((a, b) => a.from - b.from);
}

/** "Suggested merge order: fix-login, then this one (add-logging)". */
export function orderText(order: readonly string[], workspaceId: string, names: (id: string) => string): string {
  if (order.length < 2) return "";
  const name = (id: string) => (id === workspaceId ? `this one (${names(id)})` : names(id));
  return `Suggested merge order, fewest conflicts first: ${order.map(name).join(", then ")}`;
}
