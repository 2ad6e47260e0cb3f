import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ApprovalBlock, ToolBlock } from "../store/model";
import { ApprovalCard } from "./session/ApprovalCard";
import { ClarifyCard } from "./session/ClarifyCard";
import { Composer } from "./composer/Composer";
import { BackendOffline, NoAgent, PickProject, realAgents } from "./common/EmptyStates";
import { groupByDay, sessionMarker } from "./sidebar/Sidebar";
import { shortArg, ToolCard } from "./session/ToolCard";

const approval: ApprovalBlock = {
  kind: "approval",
  key: "k",
  seq: 1,
  approvalId: "ap1",
  title: "Run a shell command",
  command: "rm -rf /tmp/x",
  options: [
    { id: "allow_once", label: "Allow once", kind: "allow_once" },
    { id: "allow_always", label: "Always allow", kind: "allow_always" },
    { id: "reject", label: "Deny", kind: "reject_once" },
  ],
};

describe("ApprovalCard", () => {
  it("offers the agent's options as buttons with number shortcuts", async () => {
    const onChoose = vi.fn(async () => undefined);
    render(<ApprovalCard block={approval} active onChoose={onChoose} />);
    const buttons = screen.getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual(["Allow once1", "Always allow2", "Deny3"]);
    expect(buttons.map((b) => b.getAttribute("aria-keyshortcuts"))).toEqual(["1", "2", "3"]);
    expect(screen.getByText("rm -rf /tmp/x")).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: /Deny/ }));
    expect(onChoose).toHaveBeenCalledWith("ap1", "reject");
  });

  it("answers from the keyboard, but not while typing in a field", async () => {
    const onChoose = vi.fn(async () => undefined);
    render(
      <>
        <input aria-label="elsewhere" />
        <ApprovalCard block={approval} active onChoose={onChoose} />
      </>,
    );
    fireEvent.keyDown(screen.getByLabelText("elsewhere"), { key: "2" });
    expect(onChoose).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(window, { key: "2" });
    });
    expect(onChoose).toHaveBeenCalledWith("ap1", "allow_always");
  });

  it("shows the outcome and takes no keys once resolved or inactive", async () => {
    const onChoose = vi.fn(async () => undefined);
    const { rerender } = render(<ApprovalCard block={{ ...approval, resolved: { choice: "allow_once", by: "user" } }} active onChoose={onChoose} />);
    expect(screen.getByText("Allow once")).toBeTruthy();
    expect(screen.queryAllByRole("button")).toHaveLength(0);
    fireEvent.keyDown(window, { key: "1" });
    rerender(<ApprovalCard block={approval} active={false} onChoose={onChoose} />);
    fireEvent.keyDown(window, { key: "1" });
    expect(onChoose).not.toHaveBeenCalled();
    expect(screen.getByText(/No longer waiting/)).toBeTruthy();
  });

  it("shows what is approved: the command, the files, the change and the input", () => {
    render(
      <ApprovalCard
        block={{ ...approval, command: undefined, toolKind: "edit", locations: ["src/a.ts"], diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-one\n+two\n", input: { url: "https://example.com" } }}
        active
        onChoose={vi.fn(async () => undefined)}
      />,
    );
    expect(screen.getByLabelText("Files").textContent).toBe("src/a.ts");
    expect(screen.getByLabelText("Change").textContent).toMatch(/\+two/);
    expect(screen.getByLabelText("Input").textContent).toMatch(/example\.com/);
  });

  it("says when the agent did not say what it wants to do, and Allow needs a second click", async () => {
    const onChoose = vi.fn(async () => undefined);
    render(<ApprovalCard block={{ ...approval, command: undefined, title: "The agent did not say what it wants to do", unexplained: true }} active onChoose={onChoose} />);
    expect(screen.getByRole("alert").textContent).toMatch(/did not say what it wants to do/);
    await userEvent.click(screen.getByRole("button", { name: /Allow once/ }));
    expect(onChoose).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: /Click again: Allow once/ })).toBeTruthy();
    await act(async () => {
      fireEvent.keyDown(window, { key: "2" }); // another allow asks its own confirmation
    });
    expect(onChoose).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: /Always allow/ }));
    expect(onChoose).toHaveBeenCalledWith("ap1", "allow_always");
  });

  it("rejects an unexplained request at once", async () => {
    const onChoose = vi.fn(async () => undefined);
    render(<ApprovalCard block={{ ...approval, unexplained: true }} active onChoose={onChoose} />);
    await userEvent.click(screen.getByRole("button", { name: /Deny/ }));
    expect(onChoose).toHaveBeenCalledWith("ap1", "reject");
  });

  it("leaves the keys to the oldest of several waiting approvals", async () => {
    const onChoose = vi.fn(async () => undefined);
    render(
      <>
        <ApprovalCard block={{ ...approval, current: true }} active onChoose={onChoose} />
        <ApprovalCard block={{ ...approval, approvalId: "ap2", key: "k2", current: false }} active onChoose={onChoose} />
      </>,
    );
    await act(async () => {
      fireEvent.keyDown(window, { key: "3" });
    });
    expect(onChoose.mock.calls).toEqual([["ap1", "reject"]]);
    // The second still takes a click.
    await userEvent.click(screen.getAllByRole("button", { name: /Allow once/ })[1]!);
    expect(onChoose).toHaveBeenLastCalledWith("ap2", "allow_once");
  });

  it("shows why a control was not accepted", async () => {
    render(<ApprovalCard block={approval} active onChoose={async () => "Nothing is waiting for this answer any more."} />);
    await userEvent.click(screen.getByRole("button", { name: /Allow once/ }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/Nothing is waiting/);
  });
});

const tool: ToolBlock = {
  kind: "tool",
  key: "t",
  seq: 1,
  toolCallId: "tc1",
  name: "Bash",
  toolKind: "execute",
  input: { command: "go test ./..." },
  output: "ok  pkg 1.2s\n",
  truncated: false,
  status: "completed",
  exitCode: 0,
  durationMs: 1234,
};

describe("ToolCard", () => {
  it("is one line when collapsed and shows args, output and exit status when expanded", async () => {
    const { container } = render(<ToolCard block={tool} />);
    const line = screen.getByRole("button");
    expect(line.getAttribute("aria-expanded")).toBe("false");
    expect(line.textContent).toContain("Bash");
    expect(line.textContent).toContain("go test ./...");
    expect(line.textContent).toContain("1.2 s");
    expect(container.querySelector(".tool-output")).toBeNull();

    await userEvent.click(line);
    expect(line.getAttribute("aria-expanded")).toBe("true");
    expect(container.querySelector(".tool-output")?.textContent).toBe("ok  pkg 1.2s\n");
    expect(screen.getByText(/"command": "go test/)).toBeTruthy();
    expect(screen.getByText(/exit code/).textContent).toContain("0");

    await userEvent.keyboard("{Enter}");
    expect(line.getAttribute("aria-expanded")).toBe("false");
  });

  it("says what a running call waits for", async () => {
    render(<ToolCard block={{ ...tool, status: "running", output: "", exitCode: undefined, durationMs: undefined }} defaultOpen />);
    expect(screen.getByText("Waiting for output…")).toBeTruthy();
  });

  it.each([
    [{ command: "ls -la" }, undefined, "ls -la"],
    [{ file_path: "a/b.go", limit: 3 }, undefined, "a/b.go"],
    [{ cmd: ["git", "status"] }, undefined, "git status"],
    [{ command: ["/bin/bash", "-lc", "echo hello > hello.txt && echo x"] }, undefined, "/bin/bash -lc 'echo hello > hello.txt && echo x'"],
    [{ command: ["echo", "it's", ""] }, undefined, `echo 'it'"'"'s' ''`],
    [{ x: 1 }, undefined, ""],
    ["raw", undefined, "raw"],
    [{ command: "ls" }, "List files", "List files"],
  ])("shortArg(%j, %s) = %s", (input, title, want) => expect(shortArg(input, title)).toBe(want));
});

describe("ClarifyCard", () => {
  it("sends a typed answer with Enter and offers choices", async () => {
    const onAnswer = vi.fn(async () => undefined);
    render(<ClarifyCard block={{ kind: "clarify", key: "c", seq: 1, clarifyId: "c1", question: "Which branch?", choices: ["main", "dev"] }} active onAnswer={onAnswer} />);
    await userEvent.click(screen.getByRole("button", { name: "dev" }));
    expect(onAnswer).toHaveBeenLastCalledWith("c1", "dev");
    await userEvent.type(screen.getByLabelText("Your answer"), "feature/x{Enter}");
    expect(onAnswer).toHaveBeenLastCalledWith("c1", "feature/x");
  });
});

describe("Composer", () => {
  it("sends on Enter, adds a line on Shift+Enter, and clears after sending", async () => {
    const sent: string[] = [];
    render(<Composer queueing={false} onSend={async (t) => (sent.push(t), true)} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "line one{Shift>}{Enter}{/Shift}line two");
    expect(sent).toEqual([]);
    expect(box.value).toBe("line one\nline two");
    await userEvent.type(box, "{Enter}");
    expect(sent).toEqual(["line one\nline two"]);
    await waitFor(() => expect(box.value).toBe(""));
  });

  it("says a message becomes a queued follow-up while a run is active", () => {
    render(<Composer queueing onSend={async () => true} />);
    expect(screen.getByPlaceholderText("Queue a follow-up…")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Queue follow-up" })).toBeTruthy();
  });
});

describe("empty states", () => {
  it("teaches how to install an agent and offers the demo agent", async () => {
    const onDemo = vi.fn();
    render(<NoAgent onDemo={onDemo} onRecheck={() => {}} />);
    for (const name of ["Hermes Agent", "Claude Code", "Codex", "Gemini CLI"]) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getByText("npm install -g @anthropic-ai/claude-code")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: /Try the demo agent/ }));
    expect(onDemo).toHaveBeenCalled();
  });

  it("counts only installed, non-demo agents as real", () => {
    expect(realAgents(null)).toEqual([]);
    expect(realAgents([{ name: "demo" }, { name: "codex", installed: false }, { name: "claude", installed: true }]).map((a) => a.name)).toEqual(["claude"]);
  });

  it("picks a folder natively in the app and by path in the browser", async () => {
    const onPick = vi.fn();
    const { unmount } = render(<PickProject canPickFolder onPick={onPick} onAddPath={async () => undefined} />);
    await userEvent.click(screen.getByRole("button", { name: /Choose folder/ }));
    expect(onPick).toHaveBeenCalled();
    unmount();

    const onAddPath = vi.fn(async () => "That folder does not exist");
    render(<PickProject canPickFolder={false} onPick={onPick} onAddPath={onAddPath} />);
    await userEvent.type(screen.getByLabelText("Folder path"), "/nope{Enter}");
    expect(onAddPath).toHaveBeenCalledWith("/nope");
    expect((await screen.findByRole("alert")).textContent).toBe("That folder does not exist");
  });

  it("explains a missing backend differently in the app and the browser", () => {
    const { rerender } = render(<BackendOffline inWails={false} onRetry={() => {}} />);
    expect(screen.getByText("hermesdesk serve")).toBeTruthy();
    rerender(<BackendOffline inWails onRetry={() => {}} />);
    expect(screen.getByText(/restart Hermes Desk/)).toBeTruthy();
  });
});

describe("sidebar helpers", () => {
  const now = new Date("2026-11-22T12:00:00");
  it("groups sessions by day, keeping their order", () => {
    const s = (id: string, at: string) => ({ id, project_id: "p", title: id, agent: "a", updated_at: at });
    const g = groupByDay([s("a", "2026-11-22T09:00:00"), s("b", "2026-11-22T01:00:00"), s("c", "2026-11-21T20:00:00"), s("d", "2026-10-01T10:00:00")], now);
    expect(g.map((x) => [x.label, x.items.map((i) => i.id)])).toEqual([
      ["Today", ["a", "b"]],
      ["Yesterday", ["c"]],
      [new Date("2026-10-01T10:00:00").toLocaleDateString(undefined, { month: "short", day: "numeric" }), ["d"]],
    ]);
  });

  it("marks needs-you over running over unread", () => {
    const s = { id: "s", project_id: "p", title: "", agent: "a" };
    const run = (status: string) => ({ id: "r", session_id: "s", status, last_seq: 1, terminal: false }) as never;
    expect(sessionMarker(s, [run("running")], true)).toBe("running");
    expect(sessionMarker(s, [run("running"), run("awaiting_approval")], false)).toBe("needs");
    expect(sessionMarker(s, [run("parked")], true)).toBe("parked");
    expect(sessionMarker(s, [run("parked"), run("queued")], false)).toBe("running");
    expect(sessionMarker(s, [], true)).toBe("unread");
    expect(sessionMarker(s, [], false)).toBeUndefined();
  });

  it("marks a session whose last run failed, unless a run works in it now (23.13)", () => {
    const s = { id: "s", project_id: "p", title: "", agent: "a", last_run_status: "failed" as const };
    const run = (status: string) => ({ id: "r", session_id: "s", status, last_seq: 1, terminal: false }) as never;
    expect(sessionMarker(s, [], true)).toBe("failed");
    expect(sessionMarker({ ...s, last_run_status: "interrupted" }, [], false)).toBe("failed");
    expect(sessionMarker(s, [run("running")], false)).toBe("running");
    expect(sessionMarker({ ...s, last_run_status: "completed" }, [], false)).toBeUndefined();
    expect(sessionMarker({ ...s, last_run_status: "cancelled" }, [], true)).toBe("unread");
  });
});
