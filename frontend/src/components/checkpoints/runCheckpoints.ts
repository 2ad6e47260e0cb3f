// What a run's footer offers and says about its checkpoint, from the
// session's checkpoint records (docs/ARCHITECTURE.md §Checkpoints). Pure:
// the footer and the tests read the same decision.
import type { Checkpoint, CheckpointFile } from "../../contract/wire.gen";

/** A line the transcript shows at the time an undo or restore happened. */
export interface CheckpointNote {
  id: string;
  at: string;
  text: string;
}

export interface RunCheckpoints {
  /** The run's own checkpoint record; without it the footer offers nothing. */
  run?: Checkpoint;
  /** The undo of this run in effect: "Redo" undoes it. */
  redo?: Checkpoint;
  /** The redo in effect: "Undo this run" undoes it (one chain, not a second undo of the run). */
  undo?: Checkpoint;
  /** The restore of this turn in effect: "Undo the restore" undoes it. */
  restored?: Checkpoint;
  notes: CheckpointNote[];
}

// Records still being written ("taking", "applying") are not yet facts.
const settled = (r: Checkpoint) => r.state === "kept" || r.state === "interrupted";

/**
 * For one run: its record, the undo, redo or restore in effect, and the
 * notes of every undo, redo and restore of it, oldest first. Each record's
 * target is the record it reverses (backend/checkpoints newRecord), so an
 * undo of an undo is a redo: odd depths from a root undo it, even redo it.
 */
export function runCheckpoints(records: readonly Checkpoint[], runId: string, time: (iso: string) => string = clock): RunCheckpoints {
  const out: RunCheckpoints = { notes: [] };
  const run = [...records].reverse().find((r) => r.kind === "run" && r.run_id === runId && settled(r));
  if (!run) return out;
  out.run = run;
  const undos = (id: string) => records.filter((r) => r.kind === "undo" && r.target === id && settled(r));
  // An interrupted one (the app stopped mid-write) is undone like any other:
  // that puts back every file it was writing (§Checkpoints, Crash).
  const note = (r: Checkpoint, text: string) =>
    out.notes.push({ id: r.id, at: r.created_at, text: `${text} at ${time(r.created_at)}${count(r.files)}.${r.state === "interrupted" ? " It was interrupted: undo it to put those files back." : ""}` });

  // Notes for every record below root; the newest branch is what holds now.
  const walk = (root: Checkpoint, words: [undo: string, redo: string]): { last: Checkpoint; depth: number } => {
    const visit = (r: Checkpoint, depth: number) => {
      for (const u of undos(r.id)) {
        note(u, words[depth % 2 === 0 ? 0 : 1]);
        visit(u, depth + 1);
      }
    };
    visit(root, 0);
    let last = root;
    let depth = 0;
    for (let next = undos(last.id).at(-1); next; next = undos(last.id).at(-1)) {
      last = next;
      depth++;
    }
    return { last, depth };
  };
  const r = walk(run, ["Undid this run's changes", "Redid this run's changes"]);
  if (r.depth % 2 === 1) out.redo = r.last;
  else if (r.depth > 0) out.undo = r.last;

  for (const rs of records.filter((x) => x.kind === "restore" && x.target === run.id && settled(x))) {
    note(rs, "Restored the files to before this message");
    const w = walk(rs, ["Undid the restore", "Restored the files again"]);
    out.restored = w.depth % 2 === 0 ? w.last : undefined;
  }
  out.notes.sort((a, b) => a.at.localeCompare(b.at));
  return out;
}

function count(files?: string[]): string {
  const n = files?.length ?? 0;
  return n === 0 ? "" : n === 1 ? ` (1 file)` : ` (${n} files)`;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The preview's lines, in the person's words: what a restore will do to each file. */
export function restoreLine(f: CheckpointFile): string {
  switch (f.action) {
    case "write":
      return `${f.path}: put back as it was`;
    case "remove":
      return `${f.path}: removed (created since)`;
    case "keep":
      return `${f.path}: created since; kept`;
    case "skip":
      return `${f.path}: left as is (${f.reason ?? "not stored"})`;
    default:
      return f.reason ? `${f.path}: ${f.reason}` : f.path;
  }
}
