// The pure parts of the Review view (docs/ARCHITECTURE.md §Review): a
// file's diff numbered line by line (the old and the new side), paired for
// side-by-side, and where a comment on a line goes. The diff's lines come
// from the session's diff view (DiffView's diffLines): one parse.
import type { ReviewComment, ReviewFile } from "../../contract/wire.gen";
import { diffLines } from "../session/DiffView";

export type RowKind = "add" | "del" | "ctx" | "hunk" | "meta";

/** One line of a diff with its numbers on each side (absent where it has none). */
export interface DiffRow {
  kind: RowKind;
  text: string;
  old?: number;
  new?: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Numbers each line of a unified diff from its hunk headers. */
export function numberedRows(diff: string): DiffRow[] {
  let oldNo = 0;
  let newNo = 0;
  return diffLines(diff).map(({ kind, text }) => {
    switch (kind) {
      case "hunk": {
        const m = HUNK.exec(text);
        if (m) {
          oldNo = Number(m[1]);
          newNo = Number(m[2]);
        }
        return { kind, text };
      }
      case "add":
        return { kind, text, new: newNo++ };
      case "del":
        return { kind, text, old: oldNo++ };
      case "ctx":
        return { kind, text, old: oldNo++, new: newNo++ };
      default:
        return { kind, text };
    }
  });
}

/** A side-by-side row: the old side's line and the new side's, or a full-width hunk or note. */
export interface SplitRow {
  left?: DiffRow;
  right?: DiffRow;
  full?: DiffRow;
}

/**
 * Pairs rows for side by side: context on both sides, each run of
 * removed lines beside the added lines that follow it (the longer run
 * leaves the other side blank).
 */
export function splitRows(rows: DiffRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: DiffRow[] = [];
  let adds: DiffRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const r of rows) {
    if (r.kind === "del") {
      if (adds.length > 0) flush();
      dels.push(r);
    } else if (r.kind === "add") adds.push(r);
    else {
      flush();
      if (r.kind === "ctx") out.push({ left: r, right: r });
      else out.push({ full: r });
    }
  }
  flush();
  return out;
}

/** Where a comment on a row goes: a removed line by its old number, any other by its new one. */
export function lineOf(r: DiffRow): { side: "old" | "new"; line: number } | undefined {
  if (r.kind === "del" && r.old !== undefined) return { side: "old", line: r.old };
  if ((r.kind === "add" || r.kind === "ctx") && r.new !== undefined) return { side: "new", line: r.new };
  return undefined;
}

/** The row's text without its diff marker: what a comment quotes. */
export function quoteOf(r: DiffRow): string {
  return r.kind === "add" || r.kind === "del" || r.kind === "ctx" ? r.text.slice(1) : r.text;
}

/** The comments on one line of one file. */
export function commentsAt(comments: readonly ReviewComment[], path: string, at: { side: string; line: number }): ReviewComment[] {
  return comments.filter((c) => c.path === path && c.side === at.side && c.line === at.line);
}

export const drafts = (comments: readonly ReviewComment[]) => comments.filter((c) => c.state === "draft");

/** Side by side only where the window is wide enough to read two columns. */
export const SPLIT_MIN_WIDTH = 1100;

/** "3 files · 1 viewed · +12 −4". */
export function reviewSummary(files: readonly ReviewFile[]): string {
  const viewed = files.filter((f) => f.viewed).length;
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  return `${files.length} ${files.length === 1 ? "file" : "files"} · ${viewed} viewed · +${added} −${removed}`;
}

/** "Send comments" while there is none to send ("Send 0 comments" read as a count to send), then "Send 1 comment", "Send 3 comments". */
export function sendLabel(n: number): string {
  return n === 0 ? "Send comments" : `Send ${n} ${n === 1 ? "comment" : "comments"}`;
}
