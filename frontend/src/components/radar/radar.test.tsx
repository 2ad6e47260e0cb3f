// The conflict radar's text and badge (docs/ARCHITECTURE.md §Conflict
// radar): pure text table-tested; the chip's badge driven by a watch bus.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WatchBus } from "../../store/bus";
import { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport } from "../../transport/transport";
import type { Conflicts, Workspace } from "../../transport/types";
import { WorkspaceChip } from "../workspaces/WorkspaceChip";
import { WorkspacesContext, type Workspaces } from "../workspaces/WorkspacesContext";
import { WorkspaceDetails } from "../workspaces/workspaceDetails";
import { badgeText, branchName, compactBadgeText, hunkWhere, menuPlace, orderNames, overlapsOf, sidesOf, spanText, type OverlapWith } from "./radarText";

const side = (id: string) => ({ workspace_id: id, branch: `hermesdesk/${id.slice(4)}` });
const answer = (overlaps: Conflicts["overlaps"], order: string[]): Conflicts => ({ project_id: "p1", overlaps, order, checked_at: "2026-11-27T08:00:00Z" });
const serverGo = { path: "api/server.go", hunks: [{ start: 4, end: 8, a: ["five by a"], b: ["five by b"] }] };

describe("what the radar says", () => {
  it("names the other workspace and the first file, the rest counted", () => {
    const c = answer([{ a: side("wsp_a"), b: side("wsp_b"), files: [serverGo] }], ["wsp_a", "wsp_b"]);
    const cases: [OverlapWith[], string][] = [
      [overlapsOf(c, "wsp_a"), "Overlaps with b: api/server.go"],
      [overlapsOf(c, "wsp_b"), "Overlaps with a: api/server.go"],
      [overlapsOf(c, "wsp_c"), ""],
      [overlapsOf(undefined, "wsp_a"), ""],
      [[{ workspaceId: "wsp_b", branch: "b", files: [serverGo, { path: "go.mod" }], mine: "a" }], "Overlaps with b: api/server.go and 1 more file"],
      [[{ workspaceId: "wsp_b", branch: "b", files: [serverGo, { path: "x" }, { path: "y" }], mine: "a" }, { workspaceId: "wsp_c", branch: "c", files: [serverGo], mine: "b" }], "Overlaps with b: api/server.go and 2 more files (and 1 more workspace)"],
    ];
    for (const [list, want] of cases) expect(badgeText(list)).toBe(want);
  });

  it("puts the file first on the sidebar's narrower badge", () => {
    const one: OverlapWith = { workspaceId: "wsp_b", branch: "b", files: [serverGo], mine: "a" };
    const cases: [OverlapWith[], string][] = [
      [[one], "api/server.go also changed in b"],
      [[{ ...one, files: [serverGo, { path: "go.mod" }, { path: "x" }] }], "3 files also changed in b"],
      [[one, { workspaceId: "wsp_c", branch: "c", files: [serverGo], mine: "b" }], "api/server.go also changed in b and 1 more"],
      [[{ ...one, files: [] }], "Some files also changed in b"],
      [[], ""],
    ];
    for (const [list, want] of cases) expect(compactBadgeText(list)).toBe(want);
  });

  it("shows each workspace its own lines first", () => {
    const c = answer([{ a: side("wsp_a"), b: side("wsp_b"), files: [serverGo] }], []);
    const [forA] = overlapsOf(c, "wsp_a");
    const [forB] = overlapsOf(c, "wsp_b");
    expect(sidesOf(serverGo.hunks[0]!, forA!.mine)).toEqual({ mine: ["five by a"], theirs: ["five by b"] });
    expect(sidesOf(serverGo.hunks[0]!, forB!.mine)).toEqual({ mine: ["five by b"], theirs: ["five by a"] });
  });

  it("says where each side's lines are in its own file", () => {
    const h = { start: 9, end: 13, a: ["five by a"], b: [], a_lines: { start: 5, count: 1 }, b_lines: { start: 7, count: 0 } };
    expect(sidesOf(h, "b")).toEqual({ mine: [], theirs: ["five by a"], mineLines: { start: 7, count: 0 }, theirLines: { start: 5, count: 1 } });
    const cases: [Parameters<typeof spanText>[0], string][] = [
      [{ start: 5, count: 1 }, "line 5"],
      [{ start: 5, count: 3 }, "lines 5–7"],
      [{ start: 7, count: 0 }, "removed before line 7"],
      [undefined, ""],
    ];
    for (const [span, want] of cases) expect(spanText(span)).toBe(want);
    expect(hunkWhere(sidesOf(h, "a"), "b")).toBe("Here line 5 · b removed before line 7");
    expect(hunkWhere(sidesOf(h, "b"), "a")).toBe("Here removed before line 7 · a line 5");
    expect(hunkWhere(sidesOf(serverGo.hunks[0]!, "a"), "b")).toBe("");
  });

  it("orders names first to merge first, this one marked", () => {
    const c = answer([], ["wsp_b", "wsp_a"]);
    expect(orderNames(c, "wsp_a", (id) => id.slice(4))).toEqual(["b", "a — this one"]);
    expect(orderNames(undefined, "wsp_a", (id) => id)).toEqual([]);
    expect(branchName("hermesdesk/fix-login", "wsp_x")).toBe("fix-login");
    expect(branchName("", "wsp_x")).toBe("x");
  });
});

const W = (id: string): Workspace => ({ id, project_id: "p1", kind: "worktree", state: "ready", path: `/w/${id}`, branch: `hermesdesk/${id.slice(4)}`, created_at: "2026-11-27T08:00:00Z", updated_at: "2026-11-27T08:00:00Z" });

function world(): { ctx: Workspaces; h: () => BusHandlers } {
  let handlers: BusHandlers | undefined;
  const api = new ApiClient(async () => ({ status: 404, body: "{}" }));
  const t: Transport = { kind: "http", api, watchRun: () => () => {}, watchBus: (h) => ((handlers = h), () => {}) };
  const bus = new WatchBus(t);
  bus.start();
  const list = [W("wsp_a"), W("wsp_b")];
  const ctx: Workspaces = { api, bus, byProject: { p1: list }, get: (id) => list.find((w) => w.id === id), reload: async () => {}, archive: async () => undefined, restore: async () => undefined, details: new WorkspaceDetails(() => Promise.reject(new Error("none"))) };
  return { ctx, h: () => handlers! };
}

describe("the radar on the chips", () => {
  it("shows the overlap on both chips from the bus, with the lines and the order, and clears it", () => {
    const { ctx, h } = world();
    render(
      <WorkspacesContext.Provider value={ctx}>
        <WorkspaceChip compact workspace={W("wsp_a")} sessionIds={[]} />
        <WorkspaceChip workspace={W("wsp_b")} sessionIds={[]} />
      </WorkspacesContext.Provider>,
    );
    expect(screen.queryByText(/Overlaps with|also changed in/)).toBeNull();
    // A snapshot already holding the answer (a window opened after it).
    act(() => h().onMessage({ seq: 3, type: "snapshot", snapshot: { runs: [], sessions_version: 1, conflicts: [answer([{ a: side("wsp_a"), b: side("wsp_b"), files: [serverGo] }], ["wsp_b", "wsp_a"])] } }));
    expect(screen.getByText("api/server.go also changed in b")).toBeTruthy();
    expect(screen.getByText("Overlaps with a: api/server.go")).toBeTruthy();
    fireEvent.click(screen.getByText("Overlaps with a: api/server.go"));
    expect(screen.getAllByText("five by a").length).toBeGreaterThan(0);
    expect(screen.getAllByText("a — this one").length).toBeGreaterThan(0);
    // Escape closes it, as a menu.
    const box = screen.getByText("Overlaps with a: api/server.go").closest("details")!;
    expect(box.open).toBe(true);
    act(() => box.dispatchEvent(new Event("toggle")));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(box.open).toBe(false);
    // The overlap goes: conflicts.changed with none.
    act(() => h().onMessage({ seq: 4, type: "conflicts.changed", conflicts: answer([], ["wsp_a", "wsp_b"]) }));
    expect(screen.queryByText(/Overlaps with|also changed in/)).toBeNull();
  });
});

describe("the badge's menu in words", () => {
  it("says which lines are whose without counting them (a side has up to three)", () => {
    const { ctx, h } = world();
    render(
      <WorkspacesContext.Provider value={ctx}>
        <WorkspaceChip workspace={W("wsp_a")} sessionIds={[]} />
      </WorkspacesContext.Provider>,
    );
    const three = { path: "api/server.go", hunks: [{ start: 4, end: 12, a: ["a1", "a2", "a3"], b: ["b1"], a_lines: { start: 2, count: 3 }, b_lines: { start: 6, count: 1 } }] };
    act(() => h().onMessage({ seq: 3, type: "conflicts.changed", conflicts: answer([{ a: side("wsp_a"), b: side("wsp_b"), files: [three] }], ["wsp_a", "wsp_b"]) }));
    fireEvent.click(screen.getByText("Overlaps with b: api/server.go"));
    const title = screen.getByText(/Both change these lines/);
    expect(title.textContent).toBe("Both change these lines: this worktree's first (green), then b's (red)");
    expect(screen.getByText("a3").className).toContain("radar-ours");
    expect(screen.getByText("b1").className).toContain("radar-theirs");
    // Each side's own line numbers, not the merged file's.
    expect(screen.getByText("Here lines 2–4 · b line 6")).toBeTruthy();
  });
});

describe("menuPlace: where a badge's fixed menu opens", () => {
  // A 1280×800 window; the sidebar's badge scrolled to y 600 once opened
  // its menu at y 1028, below the window (its static place ignored the
  // sidebar's scroll).
  it.each([
    ["a sidebar badge high up opens below it, from its left", { left: 28, top: 100, bottom: 122 }, false, { top: 126, left: 28, marginTop: 0 }],
    ["a sidebar badge low down opens above it", { left: 28, top: 600, bottom: 622 }, false, { bottom: 204, left: 28, marginTop: 0 }],
    ["the header's badge keeps the right edge (no left)", { left: 900, top: 40, bottom: 60 }, true, { top: 64, marginTop: 0 }],
    ["a badge near the right edge keeps the menu inside the window", { left: 1100, top: 100, bottom: 122 }, false, { top: 126, left: 892, marginTop: 0 }],
  ])("%s", (_name, badge, right, want) => {
    expect(menuPlace(badge, 1280, 800, right)).toEqual(want);
  });
});
