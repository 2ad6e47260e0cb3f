// One read of a workspace's detail for all its chips (docs/ARCHITECTURE.md
// §Workspaces): the header's chip and the sidebar group's chip of one
// worktree, through the window's real workspaces context, count the
// GET /api/workspaces/{id} requests.
import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WatchBus } from "../../store/bus";
import { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport } from "../../transport/transport";
import type { Project, RunState, Workspace, WorkspaceDetail } from "../../transport/types";
import { WorkspaceChip } from "./WorkspaceChip";
import { useWorkspaces, WorkspacesContext } from "./WorkspacesContext";

const W: Workspace = { id: "wsp_a", project_id: "p1", kind: "worktree", state: "ready", path: "/w/a", branch: "hermesdesk/a", created_at: "2026-11-27T08:00:00Z", updated_at: "2026-11-27T08:00:00Z" };
const project = { id: "p1", name: "p", workspace: "/w/p" } as Project;

function world() {
  let handlers: BusHandlers | undefined;
  const reads: string[] = [];
  let changed = 1;
  const api = new ApiClient(async (_method, path) => {
    if (path === "/api/projects/p1/workspaces") return { status: 200, body: JSON.stringify({ workspaces: [W] }) };
    if (path === "/api/workspaces/wsp_a") {
      reads.push(path);
      const d: WorkspaceDetail = { ...W, ahead: 1, behind: 0, changed: changed++, size_bytes: 0 } as WorkspaceDetail;
      return { status: 200, body: JSON.stringify(d) };
    }
    return { status: 404, body: "{}" };
  });
  const t: Transport = { kind: "http", api, watchRun: () => () => {}, watchBus: (h) => ((handlers = h), () => {}) };
  const bus = new WatchBus(t);
  bus.start();
  function Window({ w }: { w: Workspace }) {
    const ctx = useWorkspaces(api, bus, [project]);
    return (
      <WorkspacesContext.Provider value={ctx}>
        <header><WorkspaceChip workspace={w} sessionIds={["ses_1"]} /></header>
        <nav><WorkspaceChip compact workspace={w} sessionIds={["ses_1", "ses_2"]} /></nav>
      </WorkspacesContext.Provider>
    );
  }
  return { reads, Window, h: () => handlers! };
}

const ended = (session: string, status: string): RunState => ({ run_id: "run_1", session_id: session, agent: "demo", status } as RunState);

/** Both chips show the nth read's figure: the header's in full, the sidebar's short. */
const shown = (n: number) => {
  expect(screen.getByText(n === 1 ? "1 changed file" : `${n} changed files`)).toBeTruthy();
  expect(screen.getByText(`${n} changed`)).toBeTruthy();
};

describe("a workspace's detail", () => {
  it("is read once for the header's chip and the sidebar's, again when it changes, a run of its sessions ends or the stream reconnects", async () => {
    const { reads, Window, h } = world();
    const { rerender } = render(<Window w={W} />);
    await waitFor(() => shown(1));
    expect(reads.length).toBe(1);

    // workspace.changed: the chips get a new workspace; one read between them.
    rerender(<Window w={{ ...W, updated_at: "2026-11-27T09:00:00Z" }} />);
    await waitFor(() => shown(2));
    expect(reads.length).toBe(2);

    // A run of a session in only the sidebar's list ends: one read.
    act(() => h().onMessage({ seq: 5, type: "run.changed", run: ended("ses_2", "completed") }));
    await waitFor(() => shown(3));
    expect(reads.length).toBe(3);

    // A run still going, or another session's: nothing read.
    act(() => h().onMessage({ seq: 6, type: "run.changed", run: ended("ses_1", "running") }));
    act(() => h().onMessage({ seq: 7, type: "run.changed", run: ended("ses_9", "completed") }));
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.length).toBe(3);

    // Connected again (a snapshot): read again, once for both chips.
    act(() => h().onMessage({ seq: 9, type: "snapshot", snapshot: { runs: [], sessions_version: 2 } }));
    await waitFor(() => shown(4));
    expect(reads.length).toBe(4);
  });
});
