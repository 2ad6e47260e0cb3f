import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { RunFeed } from "../../store/feed";
import type { ToolBlock } from "../../store/model";
import { evts } from "../../store/testEvents";
import { ChangesView } from "./ChangesView";
import { DIFF_PREVIEW_LINES, diffLines, DiffView, summaryText } from "./DiffView";
import { ToolCard } from "./ToolCard";

const R = "run_d";
const editDiff = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1,2 @@\n one\n+two\n";

function fold(specs: [string, unknown][]) {
  const f = new RunFeed(R);
  f.ingest(evts(R, specs), true);
  return f.view;
}

describe("file.changed folding", () => {
  it("puts an edit's diff on its tool card and the run's net change in Changes, with totals at the end", () => {
    const v = fold([
      ["tool.started", { tool_call_id: "t1", name: "Edit", kind: "edit" }],
      ["tool.done", { tool_call_id: "t1", status: "completed" }],
      ["file.changed", { path: "notes.txt", action: "modified", diff: editDiff, added: 1, tool_call_id: "t1", source: "agent" }],
      ["file.changed", { path: "notes.txt", action: "modified", source: "agent" }], // names it only: keeps the diff
      ["file.changed", { path: "img.png", action: "created", binary: true, source: "workspace" }],
      ["file.changed", { path: "notes.txt", action: "modified", diff: editDiff + "+three\n", added: 2, source: "workspace" }],
      ["file.changed", { path: "notes.txt", action: "modified", diff: "x", added: 9, source: "agent" }], // the net change wins
      ["done", { status: "completed" }],
    ]);
    const tool = v.blocks.find((b) => b.kind === "tool") as ToolBlock;
    expect(tool.changes?.map((c) => [c.path, c.added])).toEqual([["notes.txt", 1]]);
    expect(v.files.map((f) => [f.path, f.source, f.added])).toEqual([["notes.txt", "workspace", 2], ["img.png", "workspace", undefined]]);
    const done = v.blocks.at(-1);
    expect(done?.kind === "done" && done.changes).toEqual({ files: 2, added: 2, removed: 0 });
  });
});

describe("DiffView", () => {
  it("drops file headers and marks added, removed and hunk lines", () => {
    expect(diffLines(editDiff)).toEqual([
      { kind: "hunk", text: "@@ -1 +1,2 @@" },
      { kind: "ctx", text: " one" },
      { kind: "add", text: "+two" },
    ]);
  });

  it("cuts a long diff and shows all on request", async () => {
    const body = Array.from({ length: DIFF_PREVIEW_LINES + 50 }, (_, i) => `+line ${i}`).join("\n");
    render(<DiffView file={{ path: "big.txt", seq: 1, diff: `--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,250 @@\n${body}\n`, added: 250 }} />);
    expect(screen.queryByText("+line 240")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: /Show all 251 lines/ }));
    expect(screen.getByText("+line 240")).toBeTruthy();
  });

  it("names a binary file without dumping it", () => {
    render(<DiffView file={{ path: "a.bin", seq: 1, binary: true, action: "created" }} />);
    expect(screen.getByText(/Binary file created/)).toBeTruthy();
  });

  it("says so when only the file's name is known", () => {
    render(<DiffView file={{ path: "a.txt", seq: 1, action: "modified" }} />);
    expect(screen.getByText(/without saying what changed/)).toBeTruthy();
  });
});

describe("Changes", () => {
  it("summarises and lists the run's files", () => {
    render(<ChangesView files={[
      { path: "a.txt", seq: 1, diff: editDiff, added: 1, removed: 0, action: "modified" },
      { path: "b.txt", seq: 2, diff: "@@ -1 +0,0 @@\n-x\n", added: 0, removed: 1, action: "deleted" },
    ]} />);
    expect(screen.getByText(/2 files changed, \+1 −1/)).toBeTruthy();
    expect(screen.getByLabelText("Diff of a.txt").textContent).toContain("+two");
  });

  it("badges bidi and control characters in names, and names a file too large to compare", () => {
    const v = fold([
      ["file.changed", { path: "invoice\u202Etxt.exe", action: "created", diff: "@@ -0,0 +1 @@\n+x\n", added: 1, source: "workspace" }],
      ["file.changed", { path: "esc\u001b[31m.txt", action: "created", diff: "@@ -0,0 +1 @@\n+x\n", added: 1, source: "workspace" }],
      ["file.changed", { path: "video.mp4", action: "created", not_compared: "larger than 50 MiB", source: "workspace" }],
    ]);
    const { container } = render(<ChangesView files={v.files} />);
    const names = [...container.querySelectorAll(".file-change-line .ellipsis")].map((e) => e.textContent);
    expect(names).toEqual(["invoice<U+202E>txt.exe", "esc<U+001B>[31m.txt", "video.mp4"]);
    expect(container.textContent).not.toContain("\u202E");
    expect(screen.getByText("not compared: larger than 50 MiB")).toBeTruthy();
    expect(screen.getByText("Not compared: larger than 50 MiB.")).toBeTruthy(); // opened: three files
  });

  it("counts in words", () => {
    expect(summaryText({ files: 1, added: 12, removed: 4 })).toBe("1 file changed, +12 −4");
    expect(summaryText({ files: 3, added: 0, removed: 0 })).toBe("3 files changed, +0 −0");
  });

  it("shows a tool call's diff on its card", async () => {
    const block: ToolBlock = {
      kind: "tool", key: "k", seq: 1, toolCallId: "t1", name: "Edit", output: "", truncated: false, status: "completed",
      changes: [{ path: "notes.txt", seq: 2, diff: editDiff, added: 1 }],
    };
    render(<ToolCard block={block} />);
    await userEvent.click(screen.getByRole("button", { name: /Edit/ }));
    expect(screen.getByLabelText("Diff of notes.txt").textContent).toContain("+two");
  });
});
