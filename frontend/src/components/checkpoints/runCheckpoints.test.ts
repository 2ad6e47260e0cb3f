import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../contract/wire.gen";
import { restoreLine, runCheckpoints } from "./runCheckpoints";

let n = 0;
function rec(p: Partial<Checkpoint>): Checkpoint {
  n++;
  return { id: `cp${n}`, kind: "run", state: "kept", session_id: "s", turn_id: "t1", workspace: "/w", git_dir: "/w/.git", ref: "r", created_at: `2026-01-01T10:0${n % 10}:00Z`, ...p };
}
const at = (iso: string) => iso.slice(11, 16);

describe("runCheckpoints", () => {
  const run = rec({ id: "run", run_id: "R" });
  const undo = rec({ id: "u1", kind: "undo", target: "run", files: ["a.txt", "b.txt"], created_at: "2026-01-01T10:01:00Z" });
  const redo = rec({ id: "u2", kind: "undo", target: "u1", created_at: "2026-01-01T10:02:00Z" });
  const restore = rec({ id: "rs", kind: "restore", target: "run", files: ["a.txt"], created_at: "2026-01-01T10:03:00Z" });
  const unrestore = rec({ id: "rs-u", kind: "undo", target: "rs", created_at: "2026-01-01T10:04:00Z" });
  const cases: { name: string; records: Checkpoint[]; want: { run?: string; redo?: string; undo?: string; restored?: string; notes: string[] } }[] = [
    { name: "no record: nothing offered", records: [], want: { notes: [] } },
    { name: "a record still being taken is not offered", records: [{ ...run, state: "taking" }], want: { notes: [] } },
    { name: "a kept run: undo offered", records: [run], want: { run: "run", notes: [] } },
    { name: "undone: redo offered, said with its time and files", records: [run, undo], want: { run: "run", redo: "u1", notes: ["Undid this run's changes at 10:01 (2 files)."] } },
    {
      name: "an interrupted undo says so and can be undone",
      records: [run, { ...undo, state: "interrupted" }],
      want: { run: "run", redo: "u1", notes: ["Undid this run's changes at 10:01 (2 files). It was interrupted: undo it to put those files back."] },
    },
    { name: "an undo still applying is not a fact yet", records: [run, { ...undo, state: "applying" }], want: { run: "run", notes: [] } },
    {
      name: "redone: undoing again undoes the redo",
      records: [run, undo, redo],
      want: { run: "run", undo: "u2", notes: ["Undid this run's changes at 10:01 (2 files).", "Redid this run's changes at 10:02."] },
    },
    { name: "restored: the restore can be undone", records: [run, restore], want: { run: "run", restored: "rs", notes: ["Restored the files to before this message at 10:03 (1 file)."] } },
    {
      name: "a restore undone is no longer in effect",
      records: [run, restore, unrestore],
      want: { run: "run", notes: ["Restored the files to before this message at 10:03 (1 file).", "Undid the restore at 10:04."] },
    },
    { name: "another run's undo says nothing here", records: [run, rec({ id: "other", run_id: "X" }), rec({ kind: "undo", target: "other" })], want: { run: "run", notes: [] } },
  ];
  it.each(cases)("$name", ({ records, want }) => {
    const got = runCheckpoints(records, "R", at);
    expect({ run: got.run?.id, redo: got.redo?.id, undo: got.undo?.id, restored: got.restored?.id, notes: got.notes.map((x) => x.text) }).toEqual({
      run: want.run,
      redo: want.redo,
      undo: want.undo,
      restored: want.restored,
      notes: want.notes,
    });
  });
});

describe("restoreLine", () => {
  it.each([
    [{ path: "a.txt", action: "write" }, "a.txt: put back as it was"],
    [{ path: "new.txt", action: "remove" }, "new.txt: removed (created since)"],
    [{ path: "new.txt", action: "keep" }, "new.txt: created since; kept"],
    [{ path: "big.bin", action: "skip", reason: "not stored: larger than the limit" }, "big.bin: left as is (not stored: larger than the limit)"],
    [{ path: "sub", action: "other", reason: "a nested repository" }, "sub: a nested repository"],
  ])("%o", (f, want) => expect(restoreLine(f)).toBe(want));
});
