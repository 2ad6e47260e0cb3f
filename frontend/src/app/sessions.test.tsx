// Rename, archive and delete against a fake backend that keeps state the
// way the service does (PATCH applies, DELETE answers 409 while a run is active).
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient, type RawResponse } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { RunInfo, Session } from "../transport/types";
import { App } from "./App";

const json = (status: number, v: unknown): RawResponse => ({ status, body: v === undefined ? "" : JSON.stringify(v) });
const apiErr = (status: number, code: string, message: string) => json(status, { error: { code, message } });

function fakeBackend(init: Session[], active: RunInfo[] = []) {
  const sessions = init.map((s) => ({ ...s }));
  const runs = active.map((r) => ({ ...r }));
  const calls: string[] = [];
  let refuseTitle: string | undefined;
  const route = (m: string, p: string, b?: string): RawResponse => {
    // The window's focus report (useFocusReport) is not a change to sessions.
    if (m !== "GET" && p !== "/api/client/focus") calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (p === "/api/projects") return json(200, [{ id: "p1", name: "proj", workspace: "/w" }]);
    if (p === "/api/sessions?project_id=p1") return json(200, sessions);
    if (p === "/api/agents") return json(200, [{ name: "demo", installed: true, ok: true }]);
    if (p.startsWith("/api/runs?")) {
      const sid = new URLSearchParams(p.split("?")[1]).get("session_id");
      return json(200, runs.filter((r) => !sid || r.session_id === sid));
    }
    const cancel = /^\/api\/runs\/([^/]+)\/cancel$/.exec(p);
    if (cancel) {
      const i = runs.findIndex((r) => r.id === cancel[1]);
      if (i >= 0) runs.splice(i, 1);
      return json(200, { accepted: true, status: "accepted" });
    }
    const one = /^\/api\/sessions\/([^/?]+)$/.exec(p);
    const s = one && sessions.find((x) => x.id === decodeURIComponent(one[1]!));
    if (one && !s) return apiErr(404, "not_found", "session not found");
    if (s && m === "GET") return json(200, { ...s, messages: [] });
    if (s && m === "PATCH") {
      const patch = JSON.parse(b!) as Partial<Session>;
      if (patch.title !== undefined && patch.title === refuseTitle) return apiErr(400, "bad_request", "title must be valid text of at most 512 bytes");
      Object.assign(s, patch);
      return json(200, s);
    }
    if (s && m === "DELETE") {
      if (runs.some((r) => r.session_id === s.id)) return apiErr(409, "conflict", "the session has a running agent; stop it first");
      sessions.splice(sessions.indexOf(s), 1);
      return json(204, undefined);
    }
    return apiErr(404, "not_found", "no route");
  };
  const t: Transport = { kind: "http", api: new ApiClient(async (m, p, b) => route(m, p, b)), watchRun: () => () => {} };
  return {
    t,
    calls,
    sessions,
    refuse: (title: string) => (refuseTitle = title),
  };
}

const S = (id: string, title: string, extra: Partial<Session> = {}): Session => ({
  id,
  project_id: "p1",
  title,
  agent: "demo",
  updated_at: new Date().toISOString(),
  ...extra,
});

const sidebar = () => screen.getByRole("navigation", { name: "Projects and sessions" });
const row = (name: string) => within(sidebar()).getByRole("button", { name });

async function openMenu(title: string) {
  await userEvent.click(within(sidebar()).getByRole("button", { name: `Actions for ${title}` }));
  return screen.getByRole("menu", { name: `Actions for ${title}` });
}

function select(id: string) {
  localStorage.setItem("hermesdesk.project", JSON.stringify("p1"));
  localStorage.setItem("hermesdesk.session", JSON.stringify(id));
}

beforeEach(() => localStorage.clear());

describe("renaming a session", () => {
  it("renames from the sidebar menu, saving on Enter", async () => {
    const b = fakeBackend([S("s1", "Alpha"), S("s2", "Other")]);
    render(<App transport={b.t} />);
    await screen.findByText("Alpha");
    const menu = await openMenu("Alpha");
    expect(document.activeElement).toBe(within(menu).getByRole("menuitem", { name: /Rename/ }));
    await userEvent.click(within(menu).getByRole("menuitem", { name: /Rename/ }));
    const input = screen.getByRole("textbox", { name: "Rename Alpha" }) as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    await userEvent.clear(input);
    await userEvent.type(input, "  Beta  {Enter}");
    expect(b.calls).toEqual(['PATCH /api/sessions/s1 {"title":"Beta"}']);
    expect(await within(sidebar()).findByRole("button", { name: "Beta" })).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: /Rename/ })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(row("Beta")));
  });

  it("F2 on a focused row edits it in place and Esc cancels without a request", async () => {
    const b = fakeBackend([S("s1", "Alpha")]);
    render(<App transport={b.t} />);
    await screen.findByText("Alpha");
    row("Alpha").focus();
    fireEvent.keyDown(row("Alpha"), { key: "F2" });
    const input = screen.getByRole("textbox", { name: "Rename Alpha" });
    await userEvent.type(input, "changed");
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("textbox", { name: "Rename Alpha" })).toBeNull();
    expect(row("Alpha")).toBeTruthy();
    expect(b.calls).toEqual([]);
    // The header editor did not open as well.
    expect(screen.queryByRole("textbox", { name: "Session title" })).toBeNull();
  });

  it("F2 anywhere renames the open session from its header; a refused title keeps the editor open", async () => {
    const b = fakeBackend([S("s1", "Alpha")]);
    select("s1");
    render(<App transport={b.t} />);
    const head = await screen.findByRole("button", { name: "Alpha, rename (F2)" });
    fireEvent.keyDown(document.body, { key: "F2" });
    const input = screen.getByRole("textbox", { name: "Session title" }) as HTMLInputElement;
    expect(input.value).toBe("Alpha");
    b.refuse("Way too long");
    await userEvent.clear(input);
    await userEvent.type(input, "Way too long{Enter}");
    expect((await screen.findByRole("alert")).textContent).toContain("at most 512 bytes");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    await userEvent.clear(input);
    await userEvent.type(input, "Gamma{Enter}");
    expect(await screen.findByRole("button", { name: "Gamma, rename (F2)" })).toBeTruthy();
    expect(within(sidebar()).getByRole("button", { name: "Gamma" })).toBeTruthy();
    expect(b.calls).toEqual(['PATCH /api/sessions/s1 {"title":"Way too long"}', 'PATCH /api/sessions/s1 {"title":"Gamma"}']);
    expect(head.isConnected).toBe(false); // replaced by the new title's button
  });

  it("clicking the header title edits it; an unchanged title sends nothing", async () => {
    const b = fakeBackend([S("s1", "Alpha")]);
    select("s1");
    render(<App transport={b.t} />);
    await userEvent.click(await screen.findByRole("button", { name: "Alpha, rename (F2)" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Session title" }), "{Enter}");
    expect(screen.queryByRole("textbox", { name: "Session title" })).toBeNull();
    expect(b.calls).toEqual([]);
  });
});

describe("archiving", () => {
  it("hides an archived session under Show archived and brings it back with Unarchive", async () => {
    const b = fakeBackend([S("s1", "Alpha"), S("s2", "Keep")]);
    render(<App transport={b.t} />);
    await screen.findByText("Alpha");
    expect(within(sidebar()).queryByRole("button", { name: /Show archived/ })).toBeNull();
    await userEvent.click(within(await openMenu("Alpha")).getByRole("menuitem", { name: "Archive" }));
    expect(b.calls).toEqual(['PATCH /api/sessions/s1 {"archived":true}']);
    await waitFor(() => expect(within(sidebar()).queryByRole("button", { name: "Alpha" })).toBeNull());

    const toggle = within(sidebar()).getByRole("button", { name: "Show archived (1)" });
    await waitFor(() => expect(document.activeElement).toBe(toggle)); // focus stays in the list
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(toggle.textContent).toContain("Hide archived");
    expect(row("Alpha")).toBeTruthy();

    const menu = await openMenu("Alpha");
    expect(within(menu).queryByRole("menuitem", { name: "Archive" })).toBeNull();
    await userEvent.click(within(menu).getByRole("menuitem", { name: "Unarchive" }));
    expect(b.calls[1]).toBe('PATCH /api/sessions/s1 {"archived":false}');
    await waitFor(() => expect(within(sidebar()).queryByRole("button", { name: /archived/ })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(row("Alpha")));
  });

  it("says so when every session of a project is archived", async () => {
    const b = fakeBackend([S("s1", "Old", { archived: true })]);
    render(<App transport={b.t} />);
    expect(await screen.findByText("Every session here is archived.")).toBeTruthy();
    expect(within(sidebar()).queryByRole("button", { name: "Old" })).toBeNull();
  });
});

describe("the actions menu", () => {
  it("opens on right click and on Shift+F10, moves with arrows, and Esc puts focus back", async () => {
    const b = fakeBackend([S("s1", "Alpha")]);
    render(<App transport={b.t} />);
    await screen.findByText("Alpha");
    fireEvent.contextMenu(row("Alpha"));
    let menu = screen.getByRole("menu", { name: "Actions for Alpha" });
    const items = within(menu).getAllByRole("menuitem");
    expect(items.map((i) => i.textContent?.trim())).toEqual(["Rename F2", "Archive", "Delete… Del"]);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp" });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(row("Alpha"));

    fireEvent.keyDown(row("Alpha"), { key: "F10", shiftKey: true });
    menu = screen.getByRole("menu", { name: "Actions for Alpha" });
    await userEvent.click(document.body);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(b.calls).toEqual([]);
  });
});

describe("deleting", () => {
  it("asks first (Delete key on a row), then deletes and clears the selection", async () => {
    const b = fakeBackend([S("s1", "Alpha"), S("s2", "Other")]);
    select("s1");
    render(<App transport={b.t} />);
    await screen.findByRole("button", { name: "Alpha, rename (F2)" });
    fireEvent.keyDown(row("Alpha"), { key: "Delete" });
    const dlg = screen.getByRole("dialog", { name: "Delete session" });
    expect(dlg.textContent).toContain("Delete Alpha?");
    // Focus starts on Cancel: Enter right away deletes nothing.
    expect(document.activeElement).toBe(within(dlg).getByRole("button", { name: "Cancel" }));
    await userEvent.click(within(dlg).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(b.calls).toEqual(["DELETE /api/sessions/s1"]);
    expect(within(sidebar()).queryByRole("button", { name: "Alpha" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Alpha, rename (F2)" })).toBeNull();
    expect(JSON.parse(localStorage.getItem("hermesdesk.session")!)).toBe("");
  });

  it("Esc cancels the confirmation", async () => {
    const b = fakeBackend([S("s1", "Alpha")]);
    render(<App transport={b.t} />);
    await screen.findByText("Alpha");
    await userEvent.click(within(await openMenu("Alpha")).getByRole("menuitem", { name: /Delete/ }));
    expect(screen.getByRole("dialog", { name: "Delete session" })).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(b.calls).toEqual([]);
    expect(row("Alpha")).toBeTruthy();
  });

  it("explains the 409 while a run is active, offers to stop it, then deletes", async () => {
    const b = fakeBackend([S("s1", "Busy")], [{ id: "r1", session_id: "s1", status: "running", last_seq: 3, terminal: false }]);
    render(<App transport={b.t} />);
    await screen.findByText("Busy");
    await userEvent.click(within(await openMenu("Busy")).getByRole("menuitem", { name: /Delete/ }));
    const dlg = screen.getByRole("dialog", { name: "Delete session" });
    expect(within(dlg).queryByRole("button", { name: /Stop the run/ })).toBeNull();
    await userEvent.click(within(dlg).getByRole("button", { name: "Delete" }));
    const alert = await within(dlg).findByRole("alert");
    expect(alert.textContent).toBe("Cannot delete it yet: the session has a running agent; stop it first.");
    expect(within(sidebar()).getByRole("button", { name: /^Busy\s*running$/ })).toBeTruthy(); // still there, still running
    expect(b.sessions).toHaveLength(1);

    await userEvent.click(within(dlg).getByRole("button", { name: /Stop the run/ }));
    expect((await within(dlg).findByRole("status")).textContent).toContain("Asked the agent to stop");
    expect(b.calls).toContain("POST /api/runs/r1/cancel {}");
    await userEvent.click(within(dlg).getByRole("button", { name: /Try again/ }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(b.calls.filter((c) => c.startsWith("DELETE"))).toEqual(["DELETE /api/sessions/s1", "DELETE /api/sessions/s1"]);
    expect(b.sessions).toHaveLength(0);
  });
});
