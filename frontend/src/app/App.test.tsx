import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiClient, type RawResponse } from "../transport/api";
import type { BusHandlers, DesktopBridge, Transport } from "../transport/transport";
import { App } from "./App";
import { RECONNECT_GRACE_MS } from "./useBackend";

type Route = (method: string, path: string, body?: string) => RawResponse | undefined;

function transport(route: Route, desktop?: DesktopBridge): Transport {
  return {
    kind: desktop ? "wails" : "http",
    api: new ApiClient(async (m, p, b) => route(m, p, b) ?? { status: 404, body: '{"error":{"code":"not_found","message":"no"}}' }),
    watchRun: () => () => {},
    desktop,
  };
}

const ok = (v: unknown): RawResponse => ({ status: 200, body: JSON.stringify(v) });

function fakeDesktop(): DesktopBridge & { fire(on: boolean): void; autostart: boolean } {
  const subs = new Set<(on: boolean) => void>();
  const d = {
    autostart: false,
    info: async () => ({ name: "Hermes Desk", version: "0.3.1", commit: "abc1234", data_dir: "/home/me/.local/share/hermesdesk", platform: "linux/amd64", tray_available: true, autostart_supported: true }),
    getAutostart: async () => d.autostart,
    setAutostart: async (on: boolean) => (d.autostart = on),
    pickFolder: async () => "/home/me/code/proj",
    quit: () => {},
    onAutostartChanged: (cb: (on: boolean) => void) => {
      subs.add(cb);
      return () => subs.delete(cb);
    },
    onSecondInstance: () => () => {},
    fire: (on: boolean) => subs.forEach((cb) => cb(on)),
  };
  return d;
}

beforeEach(() => localStorage.clear());

describe("App", () => {
  it("looks like the product without a backend: sidebar and a teaching empty state", async () => {
    render(<App transport={transport(() => ({ status: 200, body: "<!doctype html>" }))} />);
    expect(await screen.findByText("Backend not connected")).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Projects and sessions" })).toBeTruthy();
  });

  it("asks for a project folder first and adds the one picked natively", async () => {
    const projects: { id: string; name: string; workspace: string }[] = [];
    const t = transport((m, p, b) => {
      if (p === "/api/projects" && m === "GET") return ok(projects);
      if (p === "/api/projects" && m === "POST") {
        const req = JSON.parse(b!);
        projects.push({ id: "p1", ...req });
        return ok(projects[0]);
      }
      if (p.startsWith("/api/sessions")) return ok([]);
      if (p.startsWith("/api/runs")) return ok([]);
      if (p === "/api/agents") return ok([{ name: "demo" }]);
    }, fakeDesktop());
    render(<App transport={t} />);
    await userEvent.click(await screen.findByRole("button", { name: /Choose folder/ }));
    await waitFor(() => expect(projects).toEqual([{ id: "p1", name: "proj", workspace: "/home/me/code/proj" }]));
    // With only the demo agent: teach how to install a real one.
    expect(await screen.findByText(/No agent found/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /Try the demo agent/ })).toBeTruthy();
  });

  it("shows the install page once: a second project gets the quiet line (23.18)", async () => {
    localStorage.setItem("hermesdesk.project", JSON.stringify("p2"));
    const t = transport((_m, p) => {
      if (p === "/api/projects") return ok([{ id: "p1", name: "first", workspace: "/w1" }, { id: "p2", name: "second", workspace: "/w2" }]);
      if (p === "/api/sessions?project_id=p1") return ok([{ id: "s1", project_id: "p1", title: "Tried the demo", agent: "demo" }]);
      if (p.startsWith("/api/sessions")) return ok([]);
      if (p.startsWith("/api/runs")) return ok([]);
      if (p === "/api/agents") return ok([{ name: "demo" }]);
    });
    render(<App transport={t} />);
    expect(await screen.findByText(/No agent found yet/)).toBeTruthy();
    expect(screen.queryByText(/here is how to install one/)).toBeNull();
  });

  it("starts a demo session from the empty state", async () => {
    const calls: string[] = [];
    const t = transport((m, p, b) => {
      calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
      if (p === "/api/projects") return ok([{ id: "p1", name: "proj", workspace: "/w" }]);
      if (p === "/api/sessions?project_id=p1") return ok([]);
      if (p === "/api/sessions" && m === "POST") return ok({ id: "s1", project_id: "p1", title: "Show me", agent: "demo" });
      if (p === "/api/runs" && m === "POST") return { status: 202, body: JSON.stringify({ run_id: "r1", session_id: "s1", user_message_id: "u", assistant_message_id: "a", status: "running" }) };
      if (p.startsWith("/api/runs")) return ok([]);
      if (p === "/api/agents") return ok([]);
    });
    render(<App transport={t} />);
    await userEvent.click(await screen.findByRole("button", { name: /Try the demo agent/ }));
    await waitFor(() => expect(calls.some((c) => c.startsWith("POST /api/runs "))).toBe(true));
    expect(calls.find((c) => c.startsWith("POST /api/sessions"))).toContain('"agent":"demo"');
    const run = JSON.parse(calls.find((c) => c.startsWith("POST /api/runs "))!.slice("POST /api/runs ".length));
    expect(run.session_id).toBe("s1");
    expect(run.client_request_id).toMatch(/.{16,}/);
  });

  it("opens the shortcut sheet on ? and closes it with Esc; Ctrl+K opens the quick switcher", async () => {
    render(<App transport={transport(() => ({ status: 200, body: "<html>" }))} />);
    await screen.findByText("Backend not connected");
    fireEvent.keyDown(window, { key: "?" });
    const sheet = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(sheet).getByText("Switch to a session")).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    expect(await screen.findByRole("dialog", { name: "Switch to a session" })).toBeTruthy();
  });

  it("wires Start at login to the desktop and reflects changes made in the tray", async () => {
    const d = fakeDesktop();
    render(<App transport={transport(() => ({ status: 200, body: "<html>" }), d)} />);
    await userEvent.click(await screen.findByRole("button", { name: /Settings/ }));
    const toggle = (await screen.findByRole("switch")) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(d.autostart).toBe(true);
    act(() => d.fire(false));
    expect(toggle.checked).toBe(false);

    await userEvent.click(screen.getByRole("button", { name: "About Hermes Desk" }));
    const about = await screen.findByRole("dialog", { name: "About Hermes Desk" });
    expect(await within(about).findByText("0.3.1")).toBeTruthy();
    expect(within(about).getByText("abc1234")).toBeTruthy();
    expect(within(about).getByText("/home/me/.local/share/hermesdesk")).toBeTruthy();
  });

  it("switches theme and keeps the choice", async () => {
    render(<App transport={transport(() => ({ status: 200, body: "<html>" }))} />);
    fireEvent.keyDown(window, { key: ",", ctrlKey: true });
    await userEvent.click(await screen.findByRole("radio", { name: /Dark/ }));
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    await userEvent.click(screen.getByRole("radio", { name: /System/ }));
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
    expect(localStorage.getItem("hermesdesk.theme")).toBe("system");
  });

  it("keeps the view while the page's backend is replaced (serve taking over), then says plainly when it stays away", async () => {
    let bus: BusHandlers | undefined;
    const t: Transport = {
      ...transport((_m, p) => {
        if (p === "/api/projects") return ok([{ id: "p1", name: "proj", workspace: "/w" }]);
        if (p.startsWith("/api/sessions")) return ok([]);
        if (p.startsWith("/api/runs")) return ok([]);
        if (p === "/api/agents") return ok([{ name: "demo" }]);
      }),
      watchBus: (h) => ((bus = h), () => {}),
    };
    render(<App transport={t} />);
    await waitFor(() => expect(bus).toBeTruthy());
    act(() => bus!.onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } }));
    const nav = screen.getByRole("navigation", { name: "Projects and sessions" });
    await within(nav).findByText("proj");

    vi.useFakeTimers();
    try {
      act(() => bus!.onError?.(new Error("502")));
      expect(screen.getByText("Reconnecting to Hermes Desk…")).toBeTruthy();
      expect(screen.queryByText("Backend not connected")).toBeNull();
      expect(within(nav).getByText("proj")).toBeTruthy();
      // The new supervisor's snapshot: back, nothing else changed.
      act(() => bus!.onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } }));
      expect(screen.queryByText("Reconnecting to Hermes Desk…")).toBeNull();

      // Down past the grace: the page says so (and the bus goes on retrying).
      act(() => bus!.onError?.(new Error("502")));
      act(() => vi.advanceTimersByTime(RECONNECT_GRACE_MS));
      expect(screen.getByText("Backend not connected")).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
