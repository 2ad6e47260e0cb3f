// The conflict radar in the Review view (docs/ARCHITECTURE.md §Review,
// §Conflict radar): which reviewed files another active worktree changes
// too, on which of this file's lines, and the suggested merge order. Pure,
// table-tested in reviewRadar.test.ts.
import type { LineSpan } from "../../transport/types";
import type { OverlapWith } from "../radar/radarText";
import { sidesOf } from "../radar/radarText";

/** Lines of this worktree's file, from and to (inclusive, from 1); removed: no lines, the place just before line from where this worktree removed some. */
export interface LineRange {
  from: number;
  to: number;
  removed?: true;
}

/** Another worktree changing this file: its name and the places they meet. */
export interface FileOverlap {
  workspaceId: string;
  branch: string;
  /** Each conflicted region: this worktree's lines, the other's lines, and where each is in its own file. */
  hunks: { mine: string[]; theirs: string[]; mineLines?: LineSpan; theirLines?: LineSpan }[];
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
 * radar places each side in its own file (docs/ARCHITECTURE.md §Conflict
 * radar), a deletion as the place before a line. Undefined when the
 * radar could not read the side's file.
 */
export function rangeOf(s: LineSpan | undefined): LineRange | undefined {
  if (!s || s.start < 1) return undefined;
  if (s.count === 0) return { from: s.start, to: s.start, removed: true };
  return { from: s.start, to: s.start + s.count - 1 };
}

/** "lines 12–18", "line 12", "lines 3–4 and 12–18", "lines 1, 5 and 9–10", "line 3; lines removed before line 9". */
export function rangesText(ranges: readonly LineRange[]): string {
  const kept = ranges.filter((r) => !r.removed);
  const gone = ranges.filter((r) => r.removed).map((r) => `line ${r.from}`);
  const one = (r: LineRange) => (r.from === r.to ? String(r.from) : `${r.from}–${r.to}`);
  const word = kept.length === 1 && kept[0]!.from === kept[0]!.to ? "line" : "lines";
  const out: string[] = [];
  if (kept.length) out.push(`${word} ${listText(kept.map(one))}`);
  if (gone.length) out.push(`lines removed before ${listText(gone)}`);
  return out.join("; ");
}

function listText(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** "Also changed by fix-login: lines 12–18"; without lines found, just the name. */
export function overlapText(branch: string, ranges: readonly LineRange[]): string {
  const where = rangesText(ranges);
  return where ? `Also changed by ${branch}: ${where}` : `Also changed by ${branch}`;
}

/** The lines of this file the other worktrees change, once each, in order. */
export function overlapRanges(o: FileOverlap): LineRange[] {
  const seen = new Set<string>();
  const out: LineRange[] = [];
  for (const h of o.hunks) {
    const r = rangeOf(h.mineLines);
    const key = r && `${r.from}-${r.to}-${r.removed ?? ""}`;
    if (!r || seen.has(key!)) continue;
    seen.add(key!);
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
