import { describe, expect, it } from "vitest";
import type { MergePreview, MergeResult } from "../../contract/wire.gen";
import { canMerge, mergedLine, previewLine } from "./mergeText";

const clean: MergePreview = { workspace_id: "wsp_a", strategy: "squash", base: "main", clean: true, files: ["a.go", "b.go"], message: "Do it\n", base_ahead: 0 };

describe("previewLine", () => {
  it.each<[string, MergePreview, string]>([
    ["clean", clean, "Clean: merging into main changes 2 files."],
    ["one file, uncommitted", { ...clean, files: ["a.go"], uncommitted: true }, "Clean: merging into main changes 1 file (uncommitted work included: it becomes a commit on the workspace's branch)."],
    ["conflicting", { ...clean, clean: false, conflicts: [{ path: "a.go" }], refusal: "the work conflicts" }, "Conflicts with main in 1 file."],
    ["refused though clean", { ...clean, refusal: "main has uncommitted changes the merge would overwrite in a.go" }, "main has uncommitted changes the merge would overwrite in a.go"],
  ])("%s", (_, p, want) => expect(previewLine(p)).toBe(want));
});

describe("canMerge", () => {
  it.each<[string, MergePreview | undefined, string, "squash" | "merge" | "rebase", boolean]>([
    ["clean squash with a message", clean, "Do it", "squash", true],
    ["no preview yet", undefined, "Do it", "squash", false],
    ["empty message", clean, "  ", "squash", false],
    ["rebase needs no message", clean, "", "rebase", true],
    ["conflicting", { ...clean, clean: false }, "Do it", "merge", false],
    ["refused", { ...clean, refusal: "a run is still working" }, "Do it", "squash", false],
  ])("%s", (_, p, msg, s, want) => expect(canMerge(p, msg, s)).toBe(want));
});

it("mergedLine names the backup", () => {
  const r = { ...clean, old_base: "1234567890ab", new_base: "abcdef123456", backup: "refs/hermesdesk/backup/wsp_a/t", offer_archive: true } as MergeResult;
  expect(mergedLine(r)).toBe("Merged into main: 12345678 → abcdef12. The old main is kept at refs/hermesdesk/backup/wsp_a/t.");
});
