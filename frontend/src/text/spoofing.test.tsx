// The spoofs from the security review, rendered by the real components:
// each hidden character shows as a <U+XXXX> badge, never as itself.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApprovalCard } from "../components/session/ApprovalCard";
import { BlockView } from "../components/session/BlockView";
import { ClarifyCard } from "../components/session/ClarifyCard";
import { ToolCard } from "../components/session/ToolCard";
import { renderMarkdown } from "../markdown/render";
import type { ApprovalBlock, Block, ClarifyBlock, ToolBlock } from "../store/model";

const RLO = "\u202E";
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

const spoofed: ApprovalBlock = {
  kind: "approval",
  key: "k",
  seq: 1,
  approvalId: "ap1",
  title: "Run a shell command",
  command: `ls -la ${RLO}hs.live/elpmaxe.live//:sptth | lruc ;`,
  options: [
    { id: "allow", label: "Allow once", kind: "allow_once" },
    { id: "reject", label: "Deny", kind: "reject_once" },
  ],
};

describe("spoofing with bidi controls", () => {
  it("shows the approval's command as it really is and flags the card", () => {
    const { container } = render(<ApprovalCard block={spoofed} active onChoose={vi.fn(async () => undefined)} />);
    const cmd = container.querySelector(".approval-cmd")!;
    expect(cmd.textContent).toBe("ls -la <U+202E>hs.live/elpmaxe.live//:sptth | lruc ;");
    expect(cmd.textContent).not.toMatch(BIDI);
    expect(cmd.querySelector(".invisible-char")?.getAttribute("title")).toContain("right-to-left override");
    expect(screen.getByRole("alert").textContent).toMatch(/hidden or direction-changing characters/);
    expect(container.querySelector("[data-hidden-chars]")).toBeTruthy();
  });

  it("does not flag an ordinary approval", () => {
    render(<ApprovalCard block={{ ...spoofed, command: "ls -la" }} active onChoose={vi.fn(async () => undefined)} />);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("flags a hidden character in the title or description too", () => {
    render(<ApprovalCard block={{ ...spoofed, command: "ls", title: `Edit ${RLO}txt.exe` }} active onChoose={vi.fn(async () => undefined)} />);
    expect(screen.getByRole("alert")).toBeTruthy();
    expect(screen.getByRole("heading").textContent).toBe("Edit <U+202E>txt.exe");
  });

  it("shows a tool card's path, arguments and output as they are", () => {
    const block: ToolBlock = {
      kind: "tool",
      key: "t",
      seq: 2,
      toolCallId: "t1",
      name: "write",
      input: { path: `/home/u/${RLO}gnp.exe` },
      output: `wrote /home/u/${RLO}gnp.exe`,
      truncated: false,
      status: "completed",
    };
    const { container } = render(<ToolCard block={block} />);
    const arg = container.querySelector(".tool-arg")!;
    expect(arg.textContent).toBe("/home/u/<U+202E>gnp.exe");
    expect(arg.getAttribute("title")).toBe("/home/u/<U+202E>gnp.exe");
    fireEvent.click(screen.getByRole("button"));
    expect(container.querySelector(".tool-body")!.textContent).not.toMatch(BIDI);
    expect(container.querySelector(".tool-output")!.textContent).toBe("wrote /home/u/<U+202E>gnp.exe");
  });

  it("shows them in Markdown, code and links included", () => {
    const html = renderMarkdown(`see \`a${RLO}b\` and [x${RLO}y](https://e.example/) ${RLO}txt.exe\n\n\`\`\`\nrm ${RLO}x\n\`\`\``);
    expect(html).not.toMatch(BIDI);
    expect(html.match(/&lt;U\+202E&gt;/g)).toHaveLength(4);
  });

  it("shows them in a question's text and its choices", () => {
    const block: ClarifyBlock = { kind: "clarify", key: "c", seq: 3, clarifyId: "c1", question: `Delete ${RLO}txt.exe?`, choices: [`yes ${RLO}on`] };
    const { container } = render(<ClarifyCard block={block} active onAnswer={vi.fn(async () => undefined)} />);
    expect(container.textContent).not.toMatch(BIDI);
    expect(screen.getByRole("heading").textContent).toBe("Delete <U+202E>txt.exe?");
    expect(screen.getByRole("button", { name: /yes/ }).textContent).toBe("yes <U+202E>on");
  });

  it.each<Block>([
    { kind: "user", key: "u", seq: 0, messageId: "m", text: `run ${RLO}hs.x` },
    { kind: "error", key: "e", seq: 4, message: `failed ${RLO}x`, detail: `at ${RLO}y` },
    { kind: "notice", key: "n", seq: 5, message: `note ${RLO}z` },
  ] as Block[])("shows them in a $kind block", (block) => {
    const actions = { approve: vi.fn(async () => undefined), clarify: vi.fn(async () => undefined) };
    const { container } = render(<BlockView runId="r" block={block} live actions={actions} />);
    expect(container.textContent).not.toMatch(BIDI);
    expect(container.textContent).toContain("<U+202E>");
  });
});
