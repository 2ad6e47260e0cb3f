import { describe, expect, it } from "vitest";
import type { ReviewComment, ReviewFile } from "../../contract/wire.gen";
import { commentsAt, drafts, lineOf, numberedRows, quoteOf, reviewSummary, sendLabel, splitRows } from "./reviewDiff";

const diff = [
  "diff --git a/a.go b/a.go",
  "index 1..2 100644",
  "--- a/a.go",
  "+++ b/a.go",
  "@@ -3,4 +3,5 @@ func x()",
  " keep",
  "-old one",
  "-old two",
  "+new one",
  " keep too",
  "+added",
  "\\ No newline at end of file",
  "",
].join("\n");

describe("numberedRows", () => {
  it("numbers each side from the hunk header and drops the file headers", () => {
    expect(numberedRows(diff)).toEqual([
      { kind: "hunk", text: "@@ -3,4 +3,5 @@ func x()" },
      { kind: "ctx", text: " keep", old: 3, new: 3 },
      { kind: "del", text: "-old one", old: 4 },
      { kind: "del", text: "-old two", old: 5 },
      { kind: "add", text: "+new one", new: 4 },
      { kind: "ctx", text: " keep too", old: 6, new: 5 },
      { kind: "add", text: "+added", new: 6 },
      { kind: "meta", text: "\\ No newline at end of file" },
    ]);
  });
  it("reads a created file's hunk (-0,0)", () => {
    expect(numberedRows("@@ -0,0 +1,2 @@\n+a\n+b\n").map((r) => r.new)).toEqual([undefined, 1, 2]);
  });
});

describe("splitRows", () => {
  it("puts removed lines beside the added ones after them, context on both sides", () => {
    const s = splitRows(numberedRows(diff));
    expect(s.map((r) => [r.full?.text ?? r.left?.text ?? "", r.full ? "" : (r.right?.text ?? "")])).toEqual([
      ["@@ -3,4 +3,5 @@ func x()", ""],
      [" keep", " keep"],
      ["-old one", "+new one"],
      ["-old two", ""],
      [" keep too", " keep too"],
      ["", "+added"],
      ["\\ No newline at end of file", ""],
    ]);
  });
});

describe("where a comment goes", () => {
  const rows = numberedRows(diff);
  it.each([
    [1, { side: "new", line: 3 }],
    [2, { side: "old", line: 4 }],
    [4, { side: "new", line: 4 }],
    [0, undefined],
    [7, undefined],
  ])("row %i", (i, want) => {
    expect(lineOf(rows[i]!)).toEqual(want);
  });
  it("quotes the line without its marker", () => {
    expect(quoteOf(rows[2]!)).toBe("old one");
  });
  const c = (id: string, path: string, side: string, line: number, state = "draft"): ReviewComment =>
    ({ id, workspace_id: "w", path, side, line, quote: "", text: "t", state, created_at: "", updated_at: "" }) as ReviewComment;
  it("finds the comments on a line, and the drafts", () => {
    const all = [c("1", "a.go", "new", 3), c("2", "a.go", "old", 3), c("3", "b.go", "new", 3, "sent")];
    expect(commentsAt(all, "a.go", { side: "new", line: 3 }).map((x) => x.id)).toEqual(["1"]);
    expect(drafts(all).map((x) => x.id)).toEqual(["1", "2"]);
  });
});

it("sums a review", () => {
  const f = (added: number, removed: number, viewed: boolean) => ({ path: "p", status: "modified", added, removed, blob: "b", viewed }) as ReviewFile;
  expect(reviewSummary([f(3, 1, true), f(2, 0, false)])).toBe("2 files · 1 viewed · +5 −1");
  expect(reviewSummary([f(1, 0, false)])).toBe("1 file · 0 viewed · +1 −0");
});

it("names the Send button without a count of none", () => {
  const cases: [number, string][] = [[0, "Send comments"], [1, "Send 1 comment"], [3, "Send 3 comments"]];
  for (const [n, want] of cases) expect(sendLabel(n)).toBe(want);
});
