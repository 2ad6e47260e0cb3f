// The radar in the Review view (docs/ARCHITECTURE.md §Review): which
// files, which of this worktree's lines, the words — table-tested.
import { describe, expect, it } from "vitest";
import type { OverlapWith } from "../radar/radarText";
import { numberedRows } from "./reviewDiff";
import { fileOverlaps, linesOf, orderText, overlapRanges, overlappingPaths, overlapText, rangesText } from "./reviewRadar";

// Lines 10–14 of a file: 11 and 12 rewritten, "}" both before and after.
const diff = ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -10,5 +10,5 @@", " }", "-one", "-two", "+one by me", "+two by me", " }", " tail", "@@ -40,2 +40,3 @@", " x", "+}", " y"].join("\n");
const rows = numberedRows(diff);

const list: OverlapWith[] = [
  { workspaceId: "wsp_b", branch: "fix-login", mine: "a", files: [{ path: "a.go", hunks: [{ start: 12, end: 16, a: ["one by me", "two by me"], b: ["one by b"] }] }, { path: "go.mod" }] },
  { workspaceId: "wsp_c", branch: "docs", mine: "b", files: [{ path: "a.go", hunks: [{ start: 40, end: 44, a: ["theirs"], b: ["}"] }] }] },
];

describe("the radar in the review", () => {
  it("finds this worktree's side of a region among the diff's new lines", () => {
    const cases: [string, string[], ReturnType<typeof linesOf>][] = [
      ["two changed lines", ["one by me", "two by me"], { from: 11, to: 12 }],
      ["one line", ["two by me"], { from: 12, to: 12 }],
      ["a changed line wins over the same context line", ["}"], { from: 41, to: 41 }],
      ["context alone, when nothing changed matches", ["tail"], { from: 14, to: 14 }],
      ["lines across a hunk break are no match", ["tail", "x"], undefined],
      ["a deletion has no lines", [], undefined],
      ["lines not in the diff", ["elsewhere"], undefined],
      ["the base's removed lines are not this worktree's", ["one"], undefined],
    ];
    for (const [name, mine, want] of cases) expect(linesOf(rows, mine), name).toEqual(want);
  });

  it("says which worktree changes which lines", () => {
    const cases: [string, string][] = [
      [overlapText("fix-login", [{ from: 12, to: 18 }]), "Also changed by fix-login: lines 12–18"],
      [overlapText("fix-login", [{ from: 12, to: 12 }]), "Also changed by fix-login: line 12"],
      [overlapText("fix-login", [{ from: 3, to: 4 }, { from: 12, to: 18 }]), "Also changed by fix-login: lines 3–4 and 12–18"],
      [overlapText("fix-login", []), "Also changed by fix-login"],
      [rangesText([{ from: 1, to: 1 }, { from: 5, to: 5 }, { from: 9, to: 10 }]), "lines 1, 5 and 9–10"],
    ];
    for (const [got, want] of cases) expect(got).toBe(want);
  });

  it("picks the file's overlaps, each seen from this worktree's side", () => {
    const [b, c] = fileOverlaps(list, "a.go");
    expect(b).toEqual({ workspaceId: "wsp_b", branch: "fix-login", hunks: [{ mine: ["one by me", "two by me"], theirs: ["one by b"] }] });
    expect(c!.hunks).toEqual([{ mine: ["}"], theirs: ["theirs"] }]);
    expect(overlapRanges(rows, b!)).toEqual([{ from: 11, to: 12 }]);
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
