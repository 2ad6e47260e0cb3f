import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QuickSwitch } from "./Dialogs";

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
    expect(onPick).toHaveBeenCalledWith(sessions.p1[1]);
  });
});
