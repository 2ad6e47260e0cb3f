import { describe, expect, it } from "vitest";
import { BackendUnavailableError } from "./api";
import { createTransport, inWails } from "./index";
import type { RunEvent } from "./types";
import { DOORBELL, WailsTransport, launchFolder } from "./wails";

const R = "run_w";
function env(seq: number, type = "token.delta"): RunEvent {
  return { event_id: `${R}:${seq}`, seq, run_id: R, session_id: "s", type, created_at: seq, terminal: type === "done", payload: {} };
}

/** A fake Wails window: Desktop.Request over an in-memory journal, and a runtime event bus. */
function fakeWindow(journal: RunEvent[] = []) {
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const requests: string[] = [];
  const win = {
    location: { protocol: "wails:", hostname: "wails" },
    go: {
      app: {
        Desktop: {
          async Request(method: string, path: string, body: string) {
            requests.push(`${method} ${path}${body ? ` ${body}` : ""}`);
            const m = /^\/api\/runs\/([^/]+)\/events\?after=(\d+)(?:&limit=(\d+))?$/.exec(path);
            if (m) {
              const after = Number(m[2]);
              const limit = Number(m[3] ?? 1000);
              const evs = journal.filter((e) => e.seq > after).slice(0, limit);
              return { status: 200, body: JSON.stringify({ events: evs }) };
            }
            if (path === "/api/projects") return { status: 200, body: JSON.stringify([{ id: "p1", name: "x", workspace: "/x" }]) };
            return { status: 404, body: JSON.stringify({ error: { code: "not_found", message: "No such thing" } }) };
          },
          Info: async () => ({ name: "Hermes Desk", version: "0.1.0", commit: "abc", data_dir: "/d", platform: "linux", tray_available: true, autostart_supported: true }),
          GetAutostart: async () => true,
          SetAutostart: async (on: boolean) => on,
          PickFolder: async () => "/home/me/proj",
        },
      },
    },
    runtime: {
      EventsOn(name: string, cb: (...a: unknown[]) => void) {
        let s = listeners.get(name);
        if (!s) listeners.set(name, (s = new Set()));
        s.add(cb);
        return () => s.delete(cb);
      },
    },
  };
  const emit = (name: string, ...data: unknown[]) => listeners.get(name)?.forEach((cb) => cb(...data));
  return { win, journal, requests, emit, listeners };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("WailsTransport", () => {
  it("is chosen when window.go.app.Desktop exists and routes requests through Request", async () => {
    const fw = fakeWindow();
    expect(inWails(fw.win)).toBe(true);
    const t = createTransport(fw.win);
    expect(t.kind).toBe("wails");
    expect(await t.api.listProjects()).toEqual([{ id: "p1", name: "x", workspace: "/x" }]);
    expect(fw.requests).toEqual(["GET /api/projects"]);
    await expect(t.api.getRun("nope")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("says the backend is not connected when Request is not bound yet", async () => {
    const fw = fakeWindow();
    delete (fw.win.go.app.Desktop as Record<string, unknown>).Request;
    const t = new WailsTransport({ win: fw.win });
    await expect(t.api.listProjects()).rejects.toBeInstanceOf(BackendUnavailableError);
    // Desktop-only methods that exist still work.
    expect((await t.desktop.info()).version).toBe("0.1.0");
    expect(await t.desktop.pickFolder("Pick")).toBe("/home/me/proj");
  });

  it("reports missing desktop bindings as unavailable, not a crash", async () => {
    const t = new WailsTransport({ win: { location: { protocol: "wails:" } } });
    await expect(t.desktop.getAutostart()).rejects.toBeInstanceOf(BackendUnavailableError);
    expect(() => t.desktop.onAutostartChanged(() => {})()).not.toThrow();
  });

  it("opens the paperclip's chooser in the project folder, and in an older window without one", async () => {
    const fw = fakeWindow();
    const calls: unknown[][] = [];
    const d = fw.win.go.app.Desktop as Record<string, unknown>;
    d.PickFiles = async (...a: unknown[]) => (calls.push(["PickFiles", ...a]), null);
    d.PickFilesIn = async (...a: unknown[]) => (calls.push(["PickFilesIn", ...a]), ["/w/a.txt"]);
    const t = new WailsTransport({ win: fw.win });
    expect(await t.desktop.pickFiles?.("Attach files", "/w")).toEqual(["/w/a.txt"]);
    expect(await t.desktop.pickFiles?.("Attach files")).toEqual([]);
    delete d.PickFilesIn;
    expect(await t.desktop.pickFiles?.("Attach files", "/w")).toEqual([]);
    expect(calls).toEqual([["PickFilesIn", "Attach files", "/w"], ["PickFiles", "Attach files"], ["PickFiles", "Attach files"]]);
  });

  it("hands the theme to Desktop.SetTheme, and does nothing in a window without it", async () => {
    const fw = fakeWindow();
    const themes: string[] = [];
    (fw.win.go.app.Desktop as Record<string, unknown>).SetTheme = async (t: string) => void themes.push(t);
    await new WailsTransport({ win: fw.win }).desktop.setTheme?.("dark");
    expect(themes).toEqual(["dark"]);
    await expect(new WailsTransport({ win: fakeWindow().win }).desktop.setTheme?.("light")).resolves.toBeUndefined();
  });

  it("catches up on watch, then pulls a page on each doorbell until done", async () => {
    const fw = fakeWindow([env(1), env(2)]);
    const t = new WailsTransport({ win: fw.win });
    const got: number[] = [];
    const stop = t.watchRun(R, 0, { onEvents: (evs) => got.push(...evs.map((e) => e.seq)) });
    await flush();
    expect(got).toEqual([1, 2]);

    fw.journal.push(env(3), env(4));
    fw.emit(DOORBELL, { run_id: R, seq: 4 });
    fw.emit(DOORBELL, { run_id: "other", seq: 9 });
    await flush();
    expect(got).toEqual([1, 2, 3, 4]);

    // A doorbell for something already seen costs no request.
    const before = fw.requests.length;
    fw.emit(DOORBELL, { run_id: R, seq: 3 });
    await flush();
    expect(fw.requests.length).toBe(before);

    fw.journal.push(env(5, "done"));
    fw.emit(DOORBELL, { run_id: R, seq: 5 });
    await flush();
    expect(got).toEqual([1, 2, 3, 4, 5]);
    // Done: the watcher left; further doorbells do nothing.
    fw.emit(DOORBELL, { run_id: R, seq: 6 });
    await flush();
    expect(got).toEqual([1, 2, 3, 4, 5]);
    stop();
  });

  it("pages through a backlog larger than one page", async () => {
    const fw = fakeWindow(Array.from({ length: 1234 }, (_, i) => env(i + 1)));
    const t = new WailsTransport({ win: fw.win });
    const got: number[] = [];
    t.watchRun(R, 0, { onEvents: (evs) => got.push(...evs.map((e) => e.seq)) });
    for (let i = 0; i < 10; i++) await flush();
    expect(got.length).toBe(1234);
    expect(got[1233]).toBe(1234);
    expect(fw.requests.filter((r) => r.includes("/events")).length).toBe(3);
  });

  it("stop() unsubscribes the doorbell", async () => {
    const fw = fakeWindow([env(1)]);
    const t = new WailsTransport({ win: fw.win });
    const got: number[] = [];
    const stop = t.watchRun(R, 0, { onEvents: (evs) => got.push(...evs.map((e) => e.seq)) });
    await flush();
    stop();
    fw.journal.push(env(2));
    fw.emit(DOORBELL, { run_id: R, seq: 2 });
    await flush();
    expect(got).toEqual([1]);
  });

  it("forwards autostart:changed and app:second-instance", () => {
    const fw = fakeWindow();
    const t = new WailsTransport({ win: fw.win });
    const seen: unknown[] = [];
    const off = t.desktop.onAutostartChanged((on) => seen.push(on));
    t.desktop.onSecondInstance((l) => seen.push(l));
    fw.emit("autostart:changed", false);
    fw.emit("app:second-instance", { args: ["/tmp/p"], cwd: "/home/a" });
    fw.emit("app:second-instance", "garbage");
    off();
    fw.emit("autostart:changed", true);
    expect(seen).toEqual([false, { args: ["/tmp/p"], cwd: "/home/a" }, { args: [], cwd: "" }]);
  });

  it.each([
    [{ args: ["/srv/proj"], cwd: "/home/a" }, "/srv/proj"],
    [{ args: ["proj"], cwd: "/home/a" }, "/home/a/proj"],
    [{ args: ["./proj"], cwd: "/home/a/" }, "/home/a/proj"],
    [{ args: ["."], cwd: "/home/a" }, "/home/a/"],
    [{ args: ["--verbose", "src"], cwd: "/w" }, "/w/src"],
    [{ args: ["C:\\work\\x"], cwd: "" }, "C:\\work\\x"],
    [{ args: ["rel"], cwd: "" }, undefined],
    [{ args: ["--x"], cwd: "/w" }, undefined],
    [{ args: [], cwd: "/w" }, undefined],
  ])("launchFolder(%j) = %s", (launch, want) => {
    expect(launchFolder(launch)).toBe(want);
  });
});

describe("createTransport", () => {
  it("uses HTTP in a plain browser", () => {
    expect(inWails({ location: { protocol: "http:", hostname: "127.0.0.1" } })).toBe(false);
    expect(createTransport({ location: { protocol: "http:", hostname: "127.0.0.1" } }).kind).toBe("http");
  });
});
