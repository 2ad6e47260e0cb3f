// Workspaces in the shell (docs/ARCHITECTURE.md §Workspaces): against a
// fake backend that keeps sessions and workspaces the way the service does
// and a watch bus the test drives.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "./App";
import { ApiClient, type RawResponse } from "../transport/api";
import type { BusHandlers, Transport } from "../transport/transport";
import type { Session, Workspace, WorkspaceDetail } from "../transport/types";
import { S, W } from "../components/workspaces/testWorkspaces";

const json = (status: number, v: unknown): RawResponse => ({ status, body: v === undefined ? "" : JSON.stringify(v) });
const apiErr = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/** A backend that keeps sessions and workspaces as the service does; the test drives its watch bus. */
function fakeBackend(init: { sessions?: Session[]; workspaces?: Workspace[]; settings?: Record<string, unknown> } = {}) {
  const sessions = (init.sessions ?? []).map((s) => ({ ...s }));
  const workspaces = (init.workspaces ?? []).map((w) => ({ ...w }));
  let settings = { ...(init.settings ?? {}) };
  const calls: string[] = [];
  const refusals: Record<string, string> = {};
  let bus: BusHandlers | undefined;
  const detail = (w: Workspace): WorkspaceDetail => ({ ...w, changed: 3, ahead: 2, behind: 0, size_bytes: 1_200_000 });
  let n = 0;
  const route = (m: string, p: string, b?: string): RawResponse => {
    if (m !== "GET" && p !== "/api/client/focus") calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (p === "/api/projects") return json(200, [{ id: "p1", name: "proj", workspace: "/w" }]);
    if (p === "/api/sessions?project_id=p1") return json(200, sessions);
    if (p === "/api/agents") return json(200, [{ name: "claude", installed: true, ok: true }, { name: "demo", installed: true, ok: true }]);
    if (p === "/api/settings" && m === "GET") return json(200, settings);
    if (p === "/api/settings" && m === "PUT") return json(200, (settings = { ...settings, ...(JSON.parse(b!) as object) }));
    if (p === "/api/projects/p1/workspaces") return json(200, workspaces);
    if (p.startsWith("/api/runs")) return json(200, []);
    if (p === "/api/sessions" && m === "POST") {
      const req = JSON.parse(b!) as Record<string, string>;
      const s = S(`s${++n}`, req.title ?? "", {});
      if (req.workspace === "worktree") {
        const w = W(`wsp_new${n}`, { base: req.base || "main" });
        workspaces.push(w);
        s.workspace_id = w.id;
      }
      sessions.push(s);
      return json(201, s);
    }
    if (p === "/api/runs" && m === "POST") return json(200, { run_id: "r1", session_id: "s1", user_message_id: "u", assistant_message_id: "a", status: "queued" });
    const ws = /^\/api\/workspaces\/([^/]+)(?:\/(archive|restore))?$/.exec(p);
    if (ws) {
      const w = workspaces.find((x) => x.id === ws[1]);
      if (!w) return apiErr(404, "not_found", "workspace not found");
      if (!ws[2]) return json(200, detail(w));
      if (refusals[w.id]) return apiErr(409, "conflict", refusals[w.id]!);
      w.state = ws[2] === "archive" ? "archived" : "ready";
      w.archived_at = ws[2] === "archive" ? new Date().toISOString() : undefined;
      return json(200, w);
    }
    const move = /^\/api\/sessions\/([^/]+)\/workspace$/.exec(p);
    if (move) {
      const s = sessions.find((x) => x.id === move[1])!;
      const w = W("wsp_moved");
      workspaces.push(w);
      s.workspace_id = w.id;
      return json(200, s);
    }
    const one = /^\/api\/sessions\/([^/?]+)$/.exec(p);
    const s = one && sessions.find((x) => x.id === decodeURIComponent(one[1]!));
    if (s && m === "GET") return json(200, { ...s, messages: [] });
    return apiErr(404, "not_found", "no route");
  };
  const t: Transport = {
    kind: "http",
    api: new ApiClient(async (m, p, b) => route(m, p, b)),
    watchRun: () => () => {},
    watchBus: (h) => {
      bus = h;
      queueMicrotask(() => h.onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } }));
      return () => {};
    },
  };
  return {
    t,
    calls,
    workspaces,
    refuse: (id: string, why: string) => (refusals[id] = why),
    changed: (w: Workspace) => act(() => bus!.onMessage({ seq: 2, type: "workspace.changed", workspace: w })),
  };
}

const sidebar = () => screen.getByRole("navigation", { name: "Projects and sessions" });
function open(project: string, session?: string) {
  localStorage.setItem("hermesdesk.project", JSON.stringify(project));
  if (session) localStorage.setItem("hermesdesk.session", JSON.stringify(session));
}

beforeEach(() => localStorage.clear());

describe("workspaces in the window", () => {
  it("starts a new session in a new worktree from a base branch", async () => {
    const b = fakeBackend();
    open("p1");
    render(<App transport={b.t} />);
    await userEvent.click(await screen.findByRole("radio", { name: "In a new worktree" }));
    await userEvent.type(screen.getByRole("textbox", { name: /Base branch/ }), "dev");
    await userEvent.type(screen.getByRole("textbox", { name: /Message/ }), "fix it{Enter}");
    await waitFor(() => expect(b.calls.find((c) => c.startsWith("POST /api/sessions "))).toContain('"workspace":"worktree","base":"dev"'));
    // The header names the new worktree's branch, with its figures.
    const head = await screen.findByRole("banner");
    await within(head).findByText("new1");
    expect(await within(head).findByText("3 changed files")).toBeTruthy();
  });

  it("preselects the project's default and keeps a new one in the setting", async () => {
    const b = fakeBackend({ settings: { "workspaces.default": { p1: "worktree" } } });
    open("p1");
    render(<App transport={b.t} />);
    await waitFor(() => expect((screen.getByRole("radio", { name: "In a new worktree" }) as HTMLInputElement).checked).toBe(true));
    await userEvent.click(screen.getByRole("radio", { name: "In the project folder" }));
    await userEvent.click(screen.getByRole("checkbox", { name: /Make this the default for proj/ }));
    await waitFor(() => expect(b.calls).toContain('PUT /api/settings {"workspaces.default":{"p1":"checkout"}}'));
    await userEvent.type(screen.getByRole("textbox", { name: /Message/ }), "hi{Enter}");
    await waitFor(() => expect(b.calls.find((c) => c.startsWith("POST /api/sessions "))).toContain('"workspace":"checkout"'));
  });

  it("groups the sidebar by workspace and follows workspace.changed: a worktree gone outside the app says so", async () => {
    const b = fakeBackend({ sessions: [S("s1", "In folder"), S("s2", "In tree", { workspace_id: "wsp_t1" })], workspaces: [W("wsp_t1")] });
    open("p1", "s2");
    render(<App transport={b.t} />);
    const group = await waitFor(() => {
      const g = sidebar().querySelector<HTMLElement>('[data-workspace-group="wsp_t1"]');
      if (!g) throw new Error("no group yet");
      return g;
    });
    expect(await within(group).findByText("t1")).toBeTruthy();
    expect(within(group).getByRole("button", { name: "In tree" })).toBeTruthy();
    const folder = sidebar().querySelector('[data-workspace-group="checkout"]') as HTMLElement;
    expect(within(folder).getByText("Project folder")).toBeTruthy();
    expect(within(folder).getByRole("button", { name: "In folder" })).toBeTruthy();
    const head = screen.getByRole("banner");
    await within(head).findByText("3 changed files");
    const note = "The worktree's folder /w/.worktrees/t1 is gone: it was deleted or moved outside Hermes Desk. The branch hermesdesk/t1 is kept.";
    b.changed(W("wsp_t1", { state: "gone", note }));
    expect(await within(head).findByText(note)).toBeTruthy();
    expect(within(group).getByText(note)).toBeTruthy();
  });

  it("archives from the header, shows a refusal's sentence, and restores from Recently archived", async () => {
    const b = fakeBackend({ sessions: [S("s2", "In tree", { workspace_id: "wsp_t1" })], workspaces: [W("wsp_t1")] });
    open("p1", "s2");
    render(<App transport={b.t} />);
    const head = await screen.findByRole("banner");
    const why = "A run is working in this worktree: archive it once the run has ended.";
    b.refuse("wsp_t1", why);
    await userEvent.click(await within(head).findByRole("button", { name: "Archive the worktree t1" }));
    expect((await within(head).findByRole("alert")).textContent).toBe(why);
    b.refuse("wsp_t1", "");
    await userEvent.click(within(head).getByRole("button", { name: "Archive the worktree t1" }));
    expect(await within(head).findByText("Archived: restore it to work in it again.")).toBeTruthy();
    expect(b.calls.filter((c) => c.includes("/archive"))).toHaveLength(2);
    await userEvent.click(within(sidebar()).getByRole("button", { name: "Actions for the project proj" }));
    await userEvent.click(screen.getByRole("menuitem", { name: /Recently archived worktrees/ }));
    const dialog = screen.getByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: /Restore/ }));
    await waitFor(() => expect(b.calls).toContain("POST /api/workspaces/wsp_t1/restore {}"));
    expect(await within(head).findByRole("button", { name: "Archive the worktree t1" })).toBeTruthy();
    expect(within(dialog).getByText(/No archived worktrees/)).toBeTruthy();
  });

  it("moves a session that has not run yet to a new worktree", async () => {
    const b = fakeBackend({ sessions: [S("s1", "Fresh")] });
    open("p1", "s1");
    render(<App transport={b.t} />);
    const head = await screen.findByRole("banner");
    await userEvent.click(await within(head).findByRole("button", { name: /Move to a new worktree/ }));
    await waitFor(() => expect(b.calls).toContain('POST /api/sessions/s1/workspace {"workspace":"worktree"}'));
    expect(await within(head).findByText("moved")).toBeTruthy();
  });
});
