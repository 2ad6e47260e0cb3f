import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QuickSwitch } from "../settings/Dialogs";

const projects = [{ id: "p1", name: "desk", workspace: "/w" }];
const sessions = {
  p1: [
    { id: "s1", project_id: "p1", title: "Fix the journal", agent: "claude" },
    { id: "s2", project_id: "p1", title: "Package it", agent: "codex" },
  ],
};

describe("QuickSwitch", () => {
  it("filters by title and picks with the keyboard", async () => {
    const onPick = vi.fn();
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={onPick} onClose={() => {}} />);
    await userEvent.keyboard("pack");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Package itdesk · codex"]);
    await userEvent.keyboard("{Enter}");
    expect(onPick).toHaveBeenCalledWith(sessions.p1[1]);
  });

  it("names each session's agent by its own name", async () => {
    render(<QuickSwitch projects={projects} sessions={sessions} agentName={(id) => (id === "codex" ? "Codex" : id)} onPick={() => {}} onClose={() => {}} />);
    await userEvent.keyboard("pack");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Package itdesk · Codex"]);
  });

  it("adds sessions whose transcripts match, with the snippet", async () => {
    const search = vi.fn(async () => [
      { session_id: "s2", snippet: "…dpkg-deb failed…" },
      { session_id: "s2", snippet: "again" },
      { session_id: "gone", snippet: "a session no longer listed" },
    ]);
    const onPick = vi.fn();
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={onPick} onClose={() => {}} search={search} />);
    await userEvent.keyboard("dpkg");
    expect(await screen.findByText("…dpkg-deb failed…")).toBeTruthy();
    expect(search).toHaveBeenLastCalledWith("dpkg");
    expect(screen.getAllByRole("option")).toHaveLength(1);
    await userEvent.keyboard("{Enter}");
    expect(onPick).toHaveBeenCalledWith(sessions.p1[1], { session_id: "s2", snippet: "…dpkg-deb failed…" });
  });

  it("lists each matching message or event once, and picks that hit", async () => {
    const hits = [
      { kind: "tool", session_id: "s1", run_id: "r1", seq: 40, snippet: "ran «make» test" },
      { kind: "tool", session_id: "s1", run_id: "r1", seq: 40, snippet: "ran «make» test" },
      { kind: "tool", session_id: "s1", run_id: "r1", seq: 90, snippet: "«make» install" },
      { kind: "user", session_id: "s1", message_id: "m1", snippet: "please «make» it" },
      { kind: "assistant", session_id: "s2", run_id: "r2", message_id: "a2", seq: 7, snippet: "I ran «make»" },
    ];
    const onPick = vi.fn();
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={onPick} onClose={() => {}} search={async () => hits} />);
    await userEvent.keyboard("make");
    await screen.findByText("install", { exact: false });
    const rows = screen.getAllByRole("option").map((o) => o.textContent);
    expect(rows).toEqual([
      "Fix the journalTool output · ran make test",
      "Fix the journalTool output · make install",
      "Fix the journalYou · please make it",
      "Package itAnswer · I ran make",
    ]);
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(onPick).toHaveBeenCalledWith(sessions.p1[0], hits[2]);
  });

  it("emphasises matched terms and never turns a snippet into HTML", async () => {
    const hits = [{ session_id: "s1", run_id: "r", seq: 3, snippet: "<img src=x onerror=alert(1)> «needle» & <b>bold</b>" }];
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={() => {}} onClose={() => {}} search={async () => hits} />);
    await userEvent.keyboard("needle");
    const mark = await screen.findByText("needle");
    expect(mark.tagName).toBe("MARK");
    const row = screen.getByRole("option");
    expect(row.querySelector("img, b")).toBeNull();
    expect(row.textContent).toContain("<img src=x onerror=alert(1)>");
  });

  it("finds text in archived sessions but keeps them out of the title list", async () => {
    const withArchived = { p1: [...sessions.p1, { id: "s3", project_id: "p1", title: "Old work", agent: "codex", archived: true }] };
    const hits = [{ session_id: "s3", run_id: "r3", seq: 2, snippet: "old «work» here" }];
    render(<QuickSwitch projects={projects} sessions={withArchived} onPick={() => {}} onClose={() => {}} search={async () => hits} />);
    await userEvent.keyboard("work");
    await screen.findByText("work");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Old workold work here"]);
  });

  it("caps the text rows per session", async () => {
    const hits = Array.from({ length: 20 }, (_, i) => ({ session_id: "s1", run_id: "r", seq: i + 1, snippet: `hit ${i}` }));
    render(<QuickSwitch projects={projects} sessions={sessions} onPick={() => {}} onClose={() => {}} search={async () => hits} />);
    await userEvent.keyboard("hits");
    await screen.findByText("hit 0");
    expect(screen.getAllByRole("option").length).toBeLessThan(hits.length);
    expect(screen.getAllByRole("option").length).toBeGreaterThan(1);
  });
});
