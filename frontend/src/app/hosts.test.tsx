// A session on another host in the whole window (docs/ARCHITECTURE.md
// §Remote cores, "The window"), over the real desktop transport against a
// fake core that answers this computer's routes and, under
// /api/hosts/devbox/…, the host's. Everything of a host's session goes
// through the proxy; nothing of it asks this core.
import { act, configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { evts } from "../store/testEvents";
import type { RunEvent, Session, WatchMessage } from "../transport/types";
import { WailsTransport } from "../transport/wails";
import { App } from "./App";

const HOST_SESSION: Session = { id: "hs1", project_id: "hp1", title: "Speed up the lexer", agent: "demo", created_at: "2026-11-27T13:00:00.5Z", updated_at: "2026-11-27T13:30:00Z" };
// The copy backend/remote keeps here: imported, badged "host devbox", its created_at kept.
const copiedAt = new Date(2026, 10, 27, 14, 2);
const COPY: Session = { id: "copy1", project_id: "prj_imported", title: "Speed up the lexer", agent: "demo", imported_from: "host devbox", created_at: HOST_SESSION.created_at, updated_at: copiedAt.toISOString() };

// The host's id is "devbox" (its paths); the person typed "me@build-box" (what is shown).
const DEVBOX = { id: "devbox", target: "me@build-box", status: "running", os: "linux", arch: "amd64", version: "", note: "", added_at: "2026-11-27T12:00:00Z" };

const approval = evts("hr1", [
  ["run.started", { agent: "demo" }],
  ["token.delta", { text: "Profiling the lexer." }],
  ["approval.requested", { approval_id: "ap1", title: "Run make bench", command: "make bench", options: [{ id: "ok", label: "Allow", kind: "allow_once" }, { id: "no", label: "Deny", kind: "reject_once" }] }],
]).map((e) => ({ ...e, session_id: "hs1" }));

function fakeCore() {
  const requests: string[] = [];
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const hostJournal: RunEvent[] = [...approval];
  const hostSessions: Session[] = [HOST_SESSION];
  const json = (v: unknown, status = 200) => ({ status, body: JSON.stringify(v) });
  const notFound = json({ error: { code: "not_found", message: "No such thing" } }, 404);

  const hostProjects = [{ id: "hp1", name: "Compiler", workspace: "/srv/compiler" }];
  const host = (m: string, p: string, body: string) => {
    if (p === "/projects" && m === "POST") {
      // The host's core checks the folder on the host.
      const req = JSON.parse(body) as { name: string; workspace: string };
      if (req.workspace !== "/srv/parser") return json({ error: { code: "bad_request", message: `The folder ${req.workspace} does not exist.` } }, 400);
      const proj = { id: "hp2", name: req.name, workspace: req.workspace };
      hostProjects.push(proj);
      return json(proj);
    }
    if (p === "/projects") return json(hostProjects);
    if (p === "/sessions?project_id=hp2") return json([]);
    if (p === "/sessions?project_id=hp1") return json(hostSessions);
    if (p === "/agents") return json([{ name: "demo", installed: true, ok: true }]);
    if (p === "/sessions" && m === "POST") {
      const req = JSON.parse(body) as { title: string; agent: string };
      const s: Session = { id: "hs2", project_id: "hp1", title: req.title, agent: req.agent, created_at: "2026-11-27T15:00:00Z" };
      hostSessions.push(s);
      return json(s);
    }
    if (p === "/runs" && m === "POST") return json({ run_id: "hr2", session_id: "hs2", user_message_id: "u2", assistant_message_id: "a2", status: "queued" });
    const ses = /^\/sessions\/([^/?]+)(\?.*)?$/.exec(p);
    if (ses && m === "GET") {
      const s = hostSessions.find((x) => x.id === ses[1]);
      if (!s) return notFound;
      const messages =
        s.id === "hs1"
          ? [
              { id: "u1", session_id: "hs1", role: "user", content: "make the lexer faster" },
              { id: "a1", session_id: "hs1", role: "assistant", content: "", run_id: "hr1", run: { id: "hr1", session_id: "hs1", status: "running", last_seq: 3, terminal: false } },
            ]
          : [];
      return json({ ...s, messages });
    }
    const ev = /^\/runs\/([^/]+)\/events\?after=(\d+)/.exec(p);
    if (ev) return json({ events: hostJournal.filter((e) => e.run_id === ev[1] && e.seq > Number(ev[2])) });
    if (p.includes("/approvals/")) return json({ accepted: true, status: "accepted" });
    if (p.endsWith("/checkpoints")) return json([]);
    return notFound;
  };

  const local = (m: string, p: string) => {
    if (p === "/api/projects") return json([{ id: "p1", name: "Laptop project", workspace: "/home/me/laptop" }, { id: "prj_imported", name: "Imported", workspace: "" }]);
    if (p === "/api/sessions?project_id=p1") return json([]);
    if (p === "/api/sessions?project_id=prj_imported") return json([COPY]);
    if (p === "/api/sessions/copy1" && m === "GET") return json({ ...COPY, messages: [{ id: "cu1", session_id: "copy1", role: "user", content: "make the lexer faster" }, { id: "ca1", session_id: "copy1", role: "assistant", content: "The copied answer." }] });
    if (p === "/api/agents") return json([{ name: "demo", installed: true, ok: true }]);
    if (p.startsWith("/api/runs?")) return json([]);
    if (p === "/api/watch") return json({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1, hosts: [{ host: "devbox", record: DEVBOX, reachable: true, since: "2026-11-27T12:00:00Z" }] } });
    if (p === "/api/client/focus" || p.startsWith("/api/settings")) return json({});
    if (p.startsWith("/api/history/")) return json([]);
    return notFound;
  };

  const uploads: string[] = [];
  const win = {
    location: { protocol: "wails:", hostname: "wails" },
    go: {
      app: {
        Desktop: {
          async Request(m: string, p: string, body: string) {
            requests.push(`${m} ${p}${body ? ` ${body}` : ""}`);
            const h = /^\/api\/hosts\/devbox(\/.*)$/.exec(p);
            return h ? host(m, h[1]!, body) : local(m, p);
          },
          Info: async () => ({ name: "Hermes Desk", version: "0.1.0", commit: "abc", data_dir: "/d", platform: "linux", tray_available: true, autostart_supported: true }),
          GetAutostart: async () => false,
          SetAutostart: async (on: boolean) => on,
          PickFolder: async () => "",
          PickFiles: async () => ["/home/me/secret.txt"],
          // app/upload.go: the bytes, stored where host says ("" here).
          async Upload(name: string, data: string, host: string) {
            uploads.push(`${host || "here"} ${name} ${atob(data)}`);
            return { status: 201, body: JSON.stringify({ path: `/home/remote/.local/share/hermesdesk/uploads/u1/${name}`, name, size: atob(data).length }) };
          },
          async UploadFile(path: string, host: string) {
            uploads.push(`${host || "here"} ${path}`);
            return { status: 201, body: JSON.stringify({ path: "/home/remote/.local/share/hermesdesk/uploads/u2/spec.md", name: "spec.md", size: 9 }) };
          },
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
  const emit = (name: string, ...data: unknown[]) => act(() => listeners.get(name)?.forEach((cb) => cb(...data)));
  const watch = (m: WatchMessage) => emit("watch", m);
  return { t: new WailsTransport({ win }), win, requests, uploads, hostJournal, emit, watch };
}

const sidebar = () => screen.getByRole("navigation", { name: "Projects and sessions" });

async function openHostSession(core: ReturnType<typeof fakeCore>) {
  render(<App transport={core.t} />);
  const group = await within(sidebar()).findByRole("region", { name: "Host me@build-box" });
  await userEvent.click(await within(group).findByRole("button", { name: "Compiler" }));
  await userEvent.click(await within(group).findByRole("button", { name: "Speed up the lexer" }));
}

// The session view is a lazy chunk: loaded once before, so no test waits on its first transform.
beforeAll(async () => void (await import("../components/session/SessionView")), 30_000);
beforeEach(() => localStorage.clear());
// The whole window renders here; a shared, loaded machine is slow to: wait longer for what is awaited.
configure({ asyncUtilTimeout: 5000 });

describe("a session on another host", () => {
  it("opens through the host's API, answers its approval there and follows its run from this core's doorbells", async () => {
    const core = fakeCore();
    await openHostSession(core);
    expect(await screen.findByText("Run make bench")).toBeTruthy();
    expect(screen.getByText("Profiling the lexer.")).toBeTruthy();
    // The header names where it runs.
    expect(screen.getByText(/on me@build-box/, { selector: ".chip-host" })).toBeTruthy();
    fireEvent.click(screen.getByText("Allow").closest("button")!);
    await waitFor(() => expect(core.requests).toContain('POST /api/hosts/devbox/runs/hr1/approvals/ap1 {"choice":"ok"}'));

    // The host's run goes on: this core's bus rings its doorbell (PublishRemote); the page is read through the host.
    core.hostJournal.push(...evts("hr1", [["token.delta", { text: " Twice as fast now." }]], 4).map((e) => ({ ...e, session_id: "hs1" })));
    core.emit("run:doorbell", { run_id: "hr1", seq: 4 });
    expect(await screen.findByText(/Twice as fast now\./)).toBeTruthy();
    expect(core.requests).toContain("GET /api/hosts/devbox/runs/hr1/events?after=3&limit=500");

    // This core's notifier is told the window shows it (the host's runs notify from this bus).
    expect(core.requests.some((r) => r.startsWith("PUT /api/client/focus") && r.includes('"session_id":"hs1"'))).toBe(true);
    // Nothing of the host's session asked this computer's core.
    const leaked = core.requests.filter((r) => /\/api\/(sessions\/hs1|runs\/hr1)/.test(r) && !r.includes("/api/hosts/"));
    expect(leaked).toEqual([]);
  });

  it("shows the local copy, read-only and said in words, while the host cannot be reached", async () => {
    const core = fakeCore();
    await openHostSession(core);
    expect(await screen.findByText("Run make bench")).toBeTruthy();
    core.watch({ seq: 2, type: "host.changed", host_state: { host: "devbox", record: DEVBOX, reachable: false, error: "The link to the host devbox dropped; its runs go on there. Reconnecting.", since: "2026-11-27T14:10:00Z" } });
    expect(await screen.findByText("me@build-box can't be reached; its runs go on there. Showing the copy from 14:02.")).toBeTruthy();
    // The sidebar keeps the host's projects and sessions it read, with the reason beside them.
    const group = within(sidebar()).getByRole("region", { name: "Host me@build-box" });
    expect(within(group).getByRole("button", { name: "Compiler" })).toBeTruthy();
    expect(within(group).getByRole("button", { name: "Speed up the lexer" })).toBeTruthy();
    expect(await screen.findByText("The copied answer.")).toBeTruthy();
    expect(core.requests).toContain("GET /api/sessions/copy1");
    // Read-only: the copy's composer sends nothing.
    expect((screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement).disabled).toBe(true);
    // Back: the host's own session again.
    core.watch({ seq: 3, type: "host.changed", host_state: { host: "devbox", record: DEVBOX, reachable: true, since: "2026-11-27T14:20:00Z" } });
    expect(await screen.findByText("Run make bench")).toBeTruthy();
    expect(screen.queryByText(/can't be reached/)).toBeNull();
  });

  it("starts a new session in a host's project on the host, and opens it", async () => {
    const core = fakeCore();
    // The window's own events (files:attach) come from the global runtime, as in the app.
    (window as { runtime?: unknown }).runtime = core.win.runtime;
    onTestFinished(() => void delete (window as { runtime?: unknown }).runtime);
    render(<App transport={core.t} />);
    const group = await within(sidebar()).findByRole("region", { name: "Host me@build-box" });
    await userEvent.click(await within(group).findByRole("button", { name: "New session in Compiler on me@build-box" }));
    const box = await screen.findByRole("textbox", { name: "Message" });
    // A file attached from this computer goes to the host, its bytes uploaded there (no native picker: its paths are this computer's).
    fireEvent.change(screen.getByTestId("attach-input"), { target: { files: [new File(["int main(){}"], "fuzz.c")] } });
    await waitFor(() => expect(core.uploads).toEqual(["devbox fuzz.c int main(){}"]));
    await screen.findByTitle("/home/remote/.local/share/hermesdesk/uploads/u1/fuzz.c");
    // A file dropped on the Linux window comes by its path here (files:attach): its bytes go to the host too.
    core.emit("files:attach", ["/home/me/spec.md"]);
    await screen.findByTitle("/home/remote/.local/share/hermesdesk/uploads/u2/spec.md");
    expect(core.uploads).toEqual(["devbox fuzz.c int main(){}", "devbox /home/me/spec.md"]);
    await userEvent.type(box, "add a fuzz test{Enter}");
    await waitFor(() => expect(core.requests.some((r) => r.startsWith("POST /api/hosts/devbox/runs "))).toBe(true));
    expect(core.requests.find((r) => r.startsWith("POST /api/hosts/devbox/runs "))).toContain('"attachments":["/home/remote/.local/share/hermesdesk/uploads/u1/fuzz.c","/home/remote/.local/share/hermesdesk/uploads/u2/spec.md"]');
    expect(core.requests).toContain('POST /api/hosts/devbox/sessions {"project_id":"hp1","agent":"demo","title":"add a fuzz test","workspace":"checkout"}');
    await waitFor(() => expect(core.requests).toContain("GET /api/hosts/devbox/sessions/hs2"));
    expect(core.requests.filter((r) => r.startsWith("POST /api/sessions") || r.startsWith("POST /api/runs"))).toEqual([]);
  });

  it("starts a new session in a new worktree on the host: the host's workspaces and settings, read through it", async () => {
    const core = fakeCore();
    render(<App transport={core.t} />);
    const group = await within(sidebar()).findByRole("region", { name: "Host me@build-box" });
    await userEvent.click(await within(group).findByRole("button", { name: "New session in Compiler on me@build-box" }));
    await userEvent.click(await screen.findByRole("radio", { name: "In a new worktree" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "try the arena allocator{Enter}");
    await waitFor(() => expect(core.requests.some((r) => r.startsWith("POST /api/hosts/devbox/runs "))).toBe(true));
    expect(core.requests).toContain('POST /api/hosts/devbox/sessions {"project_id":"hp1","agent":"demo","title":"try the arena allocator","workspace":"worktree"}');
    expect(core.requests).toContain("GET /api/hosts/devbox/projects/hp1/workspaces");
    expect(core.requests.filter((r) => r.startsWith("GET /api/projects/hp1") || r.startsWith("POST /api/sessions"))).toEqual([]);
  });

  it("adds a project on a host: the folder is a path there, checked by the host; it opens under that host", async () => {
    const core = fakeCore();
    render(<App transport={core.t} />);
    await within(sidebar()).findByRole("region", { name: "Host me@build-box" });
    await userEvent.click(within(sidebar()).getByRole("button", { name: "Add a project folder" }));
    // Where: this computer (its picker, as before) or a host.
    const where = await screen.findByRole("radiogroup", { name: "Where the project is" });
    expect(within(where).getByRole("radio", { name: "This computer" }).getAttribute("aria-checked")).toBe("true");
    await userEvent.click(within(where).getByRole("radio", { name: "me@build-box" }));
    const path = screen.getByRole("textbox", { name: "Folder path on me@build-box" });
    await userEvent.type(path, "/srv/nope{Enter}");
    expect((await screen.findByRole("alert")).textContent).toBe("The folder /srv/nope does not exist.");
    await userEvent.clear(path);
    await userEvent.type(path, "/srv/parser{Enter}");
    expect(core.requests).toContain('POST /api/hosts/devbox/projects {"name":"parser","workspace":"/srv/parser"}');
    // It shows under the host, and a new session there opens.
    const group = within(sidebar()).getByRole("region", { name: "Host me@build-box" });
    expect(await within(group).findByRole("button", { name: "parser" })).toBeTruthy();
    expect(await screen.findByRole("textbox", { name: "Message" })).toBeTruthy();
    expect(core.requests.filter((r) => r.startsWith("POST /api/projects"))).toEqual([]);
  });

  it("opens a host's session from the tray or a notification (only its id is given)", async () => {
    const core = fakeCore();
    render(<App transport={core.t} />);
    await within(sidebar()).findByRole("region", { name: "Host me@build-box" });
    core.emit("app:open-session", { session_id: "hs1" });
    expect(await screen.findByText("Run make bench")).toBeTruthy();
    expect(screen.getByText(/on me@build-box/, { selector: ".chip-host" })).toBeTruthy();
    expect(core.requests).toContain("GET /api/hosts/devbox/sessions/hs1");
  });
});
