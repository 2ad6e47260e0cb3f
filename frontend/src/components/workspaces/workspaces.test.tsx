// What a workspace says (docs/ARCHITECTURE.md §Workspaces): the pure
// decisions, table-tested. The shell's flows: app/workspaces.test.tsx.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../transport/api";
import { WorkspaceChip } from "./WorkspaceChip";
import { WorkspaceGroups } from "./WorkspaceGroups";
import { whereOf } from "./WorkspaceChoice";
import { upsert, WorkspacesContext, type Workspaces } from "./WorkspacesContext";
import { WorkspaceDetails } from "./workspaceDetails";
import { defaultKind, externalWorktrees, figures, groupByWorkspace, recentlyArchived, shortName, sizeText, stateWords, withDefault } from "./workspaceText";
import { S, W } from "./testWorkspaces";

describe("what a workspace says", () => {
  it("sizes in the units people read", () => {
    for (const [n, want] of [
      [0, "0 B"],
      [999, "999 B"],
      [1500, "1.5 KB"],
      [250_000_000, "250 MB"],
      [7_340_000_000, "7.3 GB"],
      [-1, "0 B"],
    ] as const)
      expect(sizeText(n)).toBe(want);
  });

  it("says a worktree's trouble in words, nothing when it is simply ready", () => {
    const gone = "The worktree's folder /w/.worktrees/x is gone: it was deleted or moved outside Hermes Desk. The branch hermesdesk/x is kept.";
    for (const [w, want] of [
      [W("wsp_a"), ""],
      [W("wsp_a", { state: "gone", note: gone }), gone],
      [W("wsp_a", { state: "gone" }), "The worktree is gone: it was deleted or moved outside Hermes Desk."],
      [W("wsp_a", { note: "The worktree was unlocked outside Hermes Desk." }), "The worktree was unlocked outside Hermes Desk."],
      [W("wsp_a", { state: "archived" }), "Archived: restore it to work in it again."],
      [W("wsp_a", { state: "claimed" }), "Being made…"],
      [W("wsp_a", { state: "failed", note: "git said no" }), "Could not be made: git said no"],
      [W("wsp_a", { setup_status: "running" }), "Setting up…"],
      [W("wsp_a", { setup_status: "failed" }), "Its setup script failed; the worktree can still be used."],
    ] as const)
      expect(stateWords(w)).toBe(want);
  });

  it("gives ahead/behind only when there is some, and the files and size always", () => {
    expect(figures({ ahead: 0, behind: 0, changed: 1, size_bytes: 2000 })).toEqual(["1 changed file", "2.0 KB"]);
    expect(figures({ ahead: 2, behind: 1, changed: 0, size_bytes: 0 })).toEqual(["↑2 ↓1", "0 changed files", "0 B"]);
    expect(shortName(W("wsp_abc"))).toBe("abc");
    expect(shortName({ id: "wsp_q", branch: "feature/x" })).toBe("feature/x");
  });

  it("keeps each project's default in one setting", () => {
    expect(defaultKind(undefined, "p1")).toBe("checkout");
    expect(defaultKind({ "workspaces.default": { p1: "worktree" } }, "p1")).toBe("worktree");
    expect(defaultKind({ "workspaces.default": { p1: "worktree" } }, "p2")).toBe("checkout");
    expect(defaultKind({ "workspaces.default": "worktree" }, "p1")).toBe("checkout");
    expect(withDefault({ "workspaces.default": { p2: "worktree" } }, "p1", "worktree")).toEqual({ p1: "worktree", p2: "worktree" });
    expect(whereOf("checkout", "main")).toEqual({ workspace: "checkout" });
    expect(whereOf("worktree", "  ")).toEqual({ workspace: "worktree" });
    expect(whereOf("worktree", " dev ")).toEqual({ workspace: "worktree", base: "dev" });
  });

  it("groups sessions by workspace, the folder first, an unknown workspace still shown", () => {
    const ss = [S("a", "a", { workspace_id: "wsp_2" }), S("b", "b"), S("c", "c", { workspace_id: "wsp_1" }), S("d", "d", { workspace_id: "wsp_2" }), S("e", "e", { workspace_id: "wsp_9" })];
    const g = groupByWorkspace(ss, [W("wsp_1"), W("wsp_2")]);
    expect(g.map((x) => [x.id, x.workspace?.id, x.items.map((s) => s.id)])).toEqual([
      ["", undefined, ["b"]],
      ["wsp_2", "wsp_2", ["a", "d"]],
      ["wsp_1", "wsp_1", ["c"]],
      ["wsp_9", undefined, ["e"]],
    ]);
    expect(groupByWorkspace([S("b", "b")], []).map((x) => x.id)).toEqual([""]);
  });

  it("lists recently archived worktrees, newest first, within the retention", () => {
    const now = Date.parse("2026-11-27T09:00:00Z");
    const list = [
      W("wsp_old", { state: "archived", archived_at: "2026-10-01T00:00:00Z" }),
      W("wsp_a", { state: "archived", archived_at: "2026-11-20T00:00:00Z" }),
      W("wsp_b", { state: "archived", archived_at: "2026-11-26T00:00:00Z" }),
      W("wsp_live"),
    ];
    expect(recentlyArchived(list, now).map((w) => w.id)).toEqual(["wsp_b", "wsp_a"]);
    expect(upsert({ p1: [W("wsp_a")] }, W("wsp_a", { state: "gone" })).p1!.map((w) => w.state)).toEqual(["gone"]);
    expect(upsert({}, W("wsp_a")).p1!.map((w) => w.id)).toEqual(["wsp_a"]);
  });

  it("tells a worktree made outside Hermes Desk from the app's own, and offers no archive for it", () => {
    const ext = W("", { origin: "external", branch: "agent/fix", path: "/w/.claude/worktrees/fix", note: "Made outside Hermes Desk: listed only." });
    const detached = W("", { origin: "external", branch: undefined, path: "/tmp/try-1" });
    expect(externalWorktrees([W("wsp_1"), ext, detached])).toEqual([ext, detached]);
    expect(stateWords(ext)).toBe("Made outside Hermes Desk");
    expect(shortName(ext)).toBe("agent/fix");
    expect(shortName(detached)).toBe("try-1");

    const ctx: Workspaces = { api: {} as ApiClient, byProject: { p1: [W("wsp_1"), ext] }, get: () => undefined, reload: async () => {}, archive: async () => undefined, restore: async () => undefined, details: new WorkspaceDetails(() => Promise.reject(new Error("none"))) };
    render(
      <WorkspacesContext.Provider value={ctx}>
        <WorkspaceGroups projectId="p1" sessions={[S("a", "a")]}>
          {(items) => items.map((s) => <div key={s.id}>{s.title}</div>)}
        </WorkspaceGroups>
      </WorkspacesContext.Provider>,
    );
    expect(screen.getByText("Made outside Hermes Desk")).toBeTruthy();
    expect(screen.getByText("agent/fix")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Archive the worktree/ })).toBeNull();
  });

  it("shows a running setup's output as workspace.changed brings it, and none once it ended", () => {
    const running = W("wsp_s", { setup_status: "running", setup_source: "conductor.json", setup_output: "installing step one\n" });
    const { rerender } = render(<WorkspaceChip workspace={running} sessionIds={[]} />);
    expect(screen.getByText("Setup output (conductor.json)")).toBeTruthy();
    expect(screen.getByText(/installing step one/)).toBeTruthy();
    rerender(<WorkspaceChip workspace={{ ...running, setup_output: "installing step one\nstep two\n" }} sessionIds={[]} />);
    expect(screen.getByText(/step two/)).toBeTruthy();
    rerender(<WorkspaceChip workspace={{ ...running, setup_status: "done" }} sessionIds={[]} />);
    expect(screen.queryByText(/Setup output/)).toBeNull();
  });
});
