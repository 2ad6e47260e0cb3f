// A fake Wails window for tests: Desktop.Request over an in-memory journal
// of run events, and a runtime event bus (doorbells). Tests only.
import type { RunEvent } from "./types";

export function fakeWindow(journal: RunEvent[] = []) {
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
              const run = decodeURIComponent(m[1]!);
              const after = Number(m[2]);
              const limit = Number(m[3] ?? 1000);
              const evs = journal.filter((e) => e.run_id === run && e.seq > after).slice(0, limit);
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
  /** The event pages read for a run, by their cursor. */
  const pages = (run: string) =>
    requests.flatMap((r) => {
      const m = /\/api\/runs\/([^/]+)\/events\?after=(\d+)/.exec(r);
      return m && decodeURIComponent(m[1]!) === run ? [Number(m[2])] : [];
    });
  return { win, journal, requests, emit, listeners, pages };
}
