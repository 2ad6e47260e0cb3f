// The one seam for a host's session (transport/host.ts): every path of the
// API, the run's event stream and uploads go through /api/hosts/{host}/;
// the watch bus stays this core's; a host gets no paths of this computer.
import { describe, expect, it } from "vitest";
import { forHost, hostPath } from "./host";
import { HttpTransport } from "./http";
import type { RunEvent } from "./types";
import { fakeWindow } from "./testWindow";
import { WailsTransport } from "./wails";

describe("hostPath", () => {
  const cases: [host: string, path: string, want: string][] = [
    ["devbox", "/api/sessions/s1", "/api/hosts/devbox/sessions/s1"],
    ["devbox", "/api/runs/r1/events?after=3", "/api/hosts/devbox/runs/r1/events?after=3"],
    ["me@build box", "/api/projects", "/api/hosts/me%40build%20box/projects"],
    ["../x", "/api/projects", "/api/hosts/..%2Fx/projects"],
    ["", "/api/projects", "/api/projects"],
    ["devbox", "/login", "/login"],
  ];
  for (const [host, path, want] of cases) it(`${host || "this computer"} ${path}`, () => expect(hostPath(host, path)).toBe(want));
});

function recordingFetch() {
  const urls: string[] = [];
  const f = async (url: RequestInfo | URL): Promise<Response> => {
    urls.push(String(url));
    if (String(url).includes("/events")) {
      const e: RunEvent = { event_id: "r1:1", seq: 1, run_id: "r1", session_id: "s1", type: "done", created_at: 1, terminal: true, payload: {} };
      return new Response(`id: r1:1\ndata: ${JSON.stringify(e)}\n\n`, { status: 200, headers: { "content-type": "text/event-stream" } });
    }
    if (String(url).includes("/watch")) return new Promise<Response>(() => {}); // the bus: stays open
    return new Response(JSON.stringify({ path: "/home/u/.local/share/hermesdesk/uploads/a.png", name: "a.png", size: 1 }), { status: 200 });
  };
  return { f: f as typeof fetch, urls };
}

describe("HttpTransport bound to a host", () => {
  it("asks the host for its API, its run's events and uploads; the bus stays this core's", async () => {
    const { f, urls } = recordingFetch();
    const local = new HttpTransport({ token: "tk", fetch: f });
    const t = forHost(local, "devbox");
    expect(t.host).toBe("devbox");
    await t.api.getSession("s1");
    await t.upload!(new Blob(["x"]), "a.png");
    await new Promise<void>((done) => t.watchRun!("r1", 0, { onEvents: (evs) => evs.some((e) => e.terminal) && done() }));
    const stop = t.watchBus!({ onMessage: () => undefined });
    stop();
    expect(urls).toEqual([
      "/api/hosts/devbox/sessions/s1",
      "/api/hosts/devbox/uploads?name=a.png",
      "/api/hosts/devbox/runs/r1/events?after=0",
      expect.stringMatching(/^\/api\/watch\?client=/),
    ]);
    // This computer's transport is untouched.
    expect(local.host).toBeUndefined();
    await local.api.getSession("s1");
    expect(urls.at(-1)).toBe("/api/sessions/s1");
    expect(forHost(local, "")).toBe(local);
  });
});

describe("WailsTransport bound to a host", () => {
  it("requests through the host, rings from this core's doorbells and offers no local files", async () => {
    const fw = fakeWindow();
    const local = new WailsTransport({ win: fw.win });
    const t = forHost(local, "devbox");
    await t.api.listProjects().catch(() => undefined);
    expect(fw.requests).toEqual(["GET /api/hosts/devbox/projects"]);
    const rung: number[] = [];
    const stop = t.ringRun!("r1", (seq) => rung.push(seq));
    fw.emit("run:doorbell", { run_id: "r1", seq: 7 });
    stop();
    expect(rung).toEqual([7]);
    // A native picker or a drop gives this computer's paths: not for a host.
    expect(t.desktop?.pickFiles).toBeUndefined();
    expect(t.desktop?.showFolder).toBeUndefined();
    expect(t.upload).toBeDefined(); // the bytes, to the host (upload.test.ts)
    expect(local.desktop.pickFiles).toBeDefined();
  });
});
