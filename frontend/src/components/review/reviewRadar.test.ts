// The radar in the Review view (docs/ARCHITECTURE.md §Review): which
// files, which of this worktree's lines, the words — table-tested.
import { describe, expect, it } from "vitest";
import type { OverlapWith } from "../radar/radarText";
import { fileOverlaps, orderText, overlapRanges, overlappingPaths, overlapText, rangeOf, rangesText } from "./reviewRadar";

// The radar places each side in its own file: the merged file's marker
// lines (start, end) are not this worktree's numbers.
const list: OverlapWith[] = [
  {
    workspaceId: "wsp_b", branch: "fix-login", mine: "a",
    files: [
      { path: "a.go", hunks: [
        { start: 14, end: 18, a: ["one by me", "two by me"], b: ["one by b"], a_lines: { start: 11, count: 2 }, b_lines: { start: 13, count: 1 } },
        { start: 30, end: 33, a: [], b: ["gone by me"], a_lines: { start: 25, count: 0 }, b_lines: { start: 27, count: 1 } },
        { start: 40, end: 44, a: ["}"], b: ["x"], a_lines: { start: 11, count: 2 } },
      ] },
      { path: "go.mod" },
    ],
  },
  { workspaceId: "wsp_c", branch: "docs", mine: "b", files: [{ path: "a.go", hunks: [{ start: 40, end: 44, a: ["theirs"], b: ["}"], a_lines: { start: 40, count: 1 }, b_lines: { start: 41, count: 1 } }] }] },
];

describe("the radar in the review", () => {
  it("takes this worktree's lines from the radar's span of its side", () => {
    const cases: [string, Parameters<typeof rangeOf>[0], ReturnType<typeof rangeOf>][] = [
      ["two lines", { start: 11, count: 2 }, { from: 11, to: 12 }],
      ["one line", { start: 12, count: 1 }, { from: 12, to: 12 }],
      ["a deletion is the place before a line", { start: 25, count: 0 }, { from: 25, to: 25, removed: true }],
      ["an answer without the side's lines", undefined, undefined],
      ["no line 0", { start: 0, count: 1 }, undefined],
    ];
    for (const [name, span, want] of cases) expect(rangeOf(span), name).toEqual(want);
  });

  it("says which worktree changes which lines", () => {
    const cases: [string, string][] = [
      [overlapText("fix-login", [{ from: 12, to: 18 }]), "Also changed by fix-login: lines 12–18"],
      [overlapText("fix-login", [{ from: 12, to: 12 }]), "Also changed by fix-login: line 12"],
      [overlapText("fix-login", [{ from: 3, to: 4 }, { from: 12, to: 18 }]), "Also changed by fix-login: lines 3–4 and 12–18"],
      [overlapText("fix-login", []), "Also changed by fix-login"],
      [rangesText([{ from: 1, to: 1 }, { from: 5, to: 5 }, { from: 9, to: 10 }]), "lines 1, 5 and 9–10"],
      [overlapText("fix-login", [{ from: 11, to: 12 }, { from: 25, to: 25, removed: true }]), "Also changed by fix-login: lines 11–12; lines removed before line 25"],
      [rangesText([{ from: 3, to: 3, removed: true }, { from: 9, to: 9, removed: true }]), "lines removed before line 3 and line 9"],
    ];
    for (const [got, want] of cases) expect(got).toBe(want);
  });

  it("picks the file's overlaps, each seen from this worktree's side", () => {
    const [b, c] = fileOverlaps(list, "a.go");
    expect(b!.hunks[0]).toEqual({ mine: ["one by me", "two by me"], theirs: ["one by b"], mineLines: { start: 11, count: 2 }, theirLines: { start: 13, count: 1 } });
    expect(c!.hunks).toEqual([{ mine: ["}"], theirs: ["theirs"], mineLines: { start: 41, count: 1 }, theirLines: { start: 40, count: 1 } }]);
    // Once each, in order; the deletion placed; not the merged file's numbers.
    expect(overlapRanges(b!)).toEqual([{ from: 11, to: 12 }, { from: 25, to: 25, removed: true }]);
    expect(overlapRanges(c!)).toEqual([{ from: 41, to: 41 }]);
    expect(fileOverlaps(list, "go.mod").map((o) => [o.branch, o.hunks])).toEqual([["fix-login", []]]);
    expect(fileOverlaps(list, "other.go")).toEqual([]);
    expect([...overlappingPaths(list)].sort()).toEqual(["a.go", "go.mod"]);
  });

  it("gives the merge order, this worktree named as such", () => {
    const names = (id: string) => id.slice(4);
    expect(orderText(["wsp_b", "wsp_a"], "wsp_a", names)).toBe("Suggested merge order, fewest conflicts first: b, then this one (a)");
    expect(orderText(["wsp_a"], "wsp_a", names)).toBe("");
  });
});
