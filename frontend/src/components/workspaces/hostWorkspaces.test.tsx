// Each host's workspaces apart (docs/ARCHITECTURE.md §Remote cores): the
// window's bus carries every host's workspace.changed, tagged with it
// (service PublishRemote); this computer's list and a host's session's list
// each keep only their own.
import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WatchBus } from "../../store/bus";
import { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport } from "../../transport/transport";
import type { Project, Workspace } from "../../transport/types";
import { useWorkspaces } from "./WorkspacesContext";

const ws = (id: string): Workspace => ({ id, project_id: "p1", kind: "worktree", state: "ready", path: `/w/${id}`, branch: `hermesdesk/${id}`, created_at: "2026-11-27T08:00:00Z", updated_at: "2026-11-27T08:00:00Z" });
const project = { id: "p1", name: "p", workspace: "/w/p" } as Project;

describe("workspaces by host", () => {
  it("keeps a host's workspace.changed in that host's list only", async () => {
    let handlers: BusHandlers | undefined;
    const reads: string[] = [];
    const api = new ApiClient(async (_m, path) => (reads.push(path), { status: 200, body: JSON.stringify({ workspaces: [] }) }));
    const t: Transport = { kind: "http", api, watchRun: () => () => {}, watchBus: (h) => ((handlers = h), () => {}) };
    const bus = new WatchBus(t);
    bus.start();
    const projects = [project];
    const here = renderHook(() => useWorkspaces(api, bus, projects));
    const there = renderHook(() => useWorkspaces(api, bus, projects, "h1"));
    await waitFor(() => expect(here.result.current.byProject.p1).toEqual([]));
    await waitFor(() => expect(there.result.current.byProject.p1).toEqual([]));
    act(() => handlers!.onMessage({ seq: 1, type: "workspace.changed", workspace: ws("wsp_host"), host: "h1" }));
    act(() => handlers!.onMessage({ seq: 2, type: "workspace.changed", workspace: ws("wsp_here") }));
    act(() => handlers!.onMessage({ seq: 3, type: "workspace.changed", workspace: ws("wsp_other"), host: "h2" }));
    expect(here.result.current.byProject.p1?.map((w) => w.id)).toEqual(["wsp_here"]);
    expect(there.result.current.byProject.p1?.map((w) => w.id)).toEqual(["wsp_host"]);

    // The host answers again: its list is read again (what changed there meanwhile was not heard).
    const before = reads.length;
    act(() => handlers!.onMessage({ seq: 4, type: "host.changed", host_state: { host: "h1", reachable: true, since: "2026-11-27T09:00:00Z" } }));
    act(() => handlers!.onMessage({ seq: 5, type: "host.changed", host_state: { host: "h2", reachable: true, since: "2026-11-27T09:00:00Z" } }));
    await waitFor(() => expect(reads.length).toBe(before + 1));
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.length).toBe(before + 1); // not for another host
  });
});
