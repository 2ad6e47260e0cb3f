import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { QuickSwitch } from "../sidebar/QuickSwitch";
import { importedSource } from "./SourceBadge";

describe("importedSource", () => {
  it.each([
    ["Claude Code 2.1.197: /home/me/.claude/projects/-w/abc.jsonl", "Claude Code"],
    ["Codex 0.128.0: /home/me/.codex/sessions/2026/01/02/rollout-x.jsonl", "Codex"],
    ["Gemini CLI: /home/me/.gemini/tmp/p/chats/session-1.jsonl", "Gemini CLI"],
    ["Hermes Agent v0.9.1: /home/me/.hermes/state.db#s1", "Hermes Agent"],
    ["a.hdbundle.jsonl", "Imported"],
    ["/tmp/odd: name.hdbundle.jsonl", "Imported"],
    ["", "Imported"],
  ])("%j → %s", (from, want) => expect(importedSource(from)).toBe(want));
});

describe("search results", () => {
  it("carry the source badge of an imported session, by title and by text", async () => {
    const projects = [{ id: "p1", name: "desk", workspace: "/w" }];
    const sessions = {
      p1: [
        { id: "s1", project_id: "p1", title: "Fix the mirror", agent: "claude", imported_from: "Claude Code 2.1.197: /h/.claude/projects/-w/a.jsonl" },
        { id: "s2", project_id: "p1", title: "Fix the tray", agent: "codex" },
      ],
    };
    const hits = [{ session_id: "s1", message_id: "m1", kind: "tool", snippet: "«marker» found" }];
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={() => {}} onClose={() => {}} search={async (q) => (q === "marker" ? hits : [])} />);
    await userEvent.keyboard("fix");
    const byTitle = screen.getAllByRole("option").map((o) => o.textContent);
    expect(byTitle).toEqual(["Fix the mirrorClaude Codedesk · claude", "Fix the traydesk · codex"]);
    await userEvent.clear(screen.getByRole("combobox"));
    await userEvent.keyboard("marker");
    const hit = (await screen.findByText("marker")).closest("button")!;
    expect(hit.querySelector(".chip-imported")?.textContent).toBe("Claude Code");
    expect(hit.querySelector(".chip-imported")?.getAttribute("title")).toContain("/h/.claude/projects/-w/a.jsonl");
  });
});
