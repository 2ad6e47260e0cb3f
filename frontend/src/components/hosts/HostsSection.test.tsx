import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { WatchBus } from "../../store/bus";
import { ApiClient } from "../../transport/api";
import { hostPath } from "../../transport/host";
import type { BusHandlers, Transport } from "../../transport/transport";
import { HostsSection } from "./HostsSection";

// Other hosts in the sidebar (docs/ARCHITECTURE.md §Remote cores): each
// host's projects read through /api/hosts/{host}/…, and an unreachable
// host said in words from the bus — its runs go on there.
function world() {
  let handlers: BusHandlers | undefined;
  const asked: string[] = [];
  const raw = async (_method: string, path: string) => {
    asked.push(path);
    if (path === "/api/hosts/devbox/sessions?project_id=p1") return { status: 200, body: JSON.stringify([{ id: "hs1", project_id: "p1", title: "Speed up the lexer", agent: "demo" }]) };
    if (path === "/api/hosts/devbox/projects") return { status: 200, body: JSON.stringify([{ id: "p1", name: "Compiler", workspace: "/srv/compiler" }]) };
    return { status: 404, body: "{}" };
  };
  const api = new ApiClient(raw);
  const t: Transport = {
    kind: "http",
    api,
    watchRun: () => () => {},
    watchBus: (h) => ((handlers = h), () => {}),
    forHost: (host) => ({ kind: "http", host, api: new ApiClient((m, p) => raw(m, hostPath(host, p))) }),
  };
  const bus = new WatchBus(t);
  bus.start();
  return { bus, t, api, asked, emit: (m: Parameters<BusHandlers["onMessage"]>[0]) => act(() => handlers!.onMessage(m)) };
}

describe("HostsSection", () => {
  it("shows nothing without other hosts", () => {
    const { bus, t, emit } = world();
    const { container } = render(<HostsSection bus={bus} t={t} />);
    emit({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } });
    expect(container.textContent).toBe("");
  });

  it("lists a host's projects, then says in words that it cannot be reached", async () => {
    const { bus, t, asked, emit } = world();
    render(<HostsSection bus={bus} t={t} />);
    emit({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1, hosts: [{ host: "devbox", reachable: true, since: "2026-11-27T10:00:00Z" }] } });
    expect(await screen.findByText("Compiler")).toBeTruthy();
    expect(asked).toEqual(["/api/hosts/devbox/projects"]);
    const words = "The link to the host devbox dropped; its runs go on there. Reconnecting.";
    emit({ seq: 2, type: "host.changed", host_state: { host: "devbox", reachable: false, error: words, since: "2026-11-27T10:05:00Z" } });
    expect(screen.getByRole("status").textContent).toBe(words);
    emit({ seq: 3, type: "host.changed", host_state: { host: "devbox", reachable: true, since: "2026-11-27T10:06:00Z" } });
    await act(async () => {}); // the second read's answer
    expect(screen.queryByRole("status")).toBeNull();
    expect(asked).toEqual(["/api/hosts/devbox/projects", "/api/hosts/devbox/projects"]); // read again once back
  });

  it("opens a project to its sessions; a session running there says so, and opens on a click", async () => {
    const { bus, t, asked, emit } = world();
    const opened: unknown[] = [];
    render(<HostsSection bus={bus} t={t} onOpen={(r) => opened.push(r)} />);
    const run = { run_id: "hr1", session_id: "hs1", agent: "demo", status: "running" as const, last_seq: 3, created_at: "2026-11-27T10:00:00Z", host: "devbox" };
    emit({ seq: 1, type: "snapshot", snapshot: { runs: [run], sessions_version: 1, hosts: [{ host: "devbox", reachable: true, since: "2026-11-27T10:00:00Z" }] } });
    await userEvent.click(await screen.findByRole("button", { name: "Compiler" }));
    const row = await screen.findByRole("button", { name: /Speed up the lexer/ });
    expect(asked).toContain("/api/hosts/devbox/sessions?project_id=p1");
    expect(within(row).getByTitle("Running on devbox").textContent).toBe("running on devbox");
    await userEvent.click(row);
    expect(opened).toEqual([{ host: "devbox", project: { id: "p1", name: "Compiler", workspace: "/srv/compiler" }, session: { id: "hs1", project_id: "p1", title: "Speed up the lexer", agent: "demo" } }]);
    // Its run ends on the host: the marker goes.
    emit({ seq: 2, type: "run.changed", run: { ...run, status: "completed" } });
    expect(within(row).queryByTitle("Running on devbox")).toBeNull();
  });

  it("keeps what it read when the sidebar mounts again while the host is away", async () => {
    const { bus, t, asked, emit } = world();
    const first = render(<HostsSection bus={bus} t={t} />);
    emit({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1, hosts: [{ host: "devbox", reachable: true, since: "2026-11-27T10:00:00Z" }] } });
    await userEvent.click(await screen.findByRole("button", { name: "Compiler" }));
    await screen.findByRole("button", { name: /Speed up the lexer/ });
    first.unmount(); // a narrow window's sidebar closes
    emit({ seq: 2, type: "host.changed", host_state: { host: "devbox", reachable: false, error: "The host devbox does not answer; its runs go on there. Trying again.", since: "2026-11-27T10:05:00Z" } });
    const n = asked.length;
    render(<HostsSection bus={bus} t={t} />);
    expect(screen.getByRole("status").textContent).toBe("The host devbox does not answer; its runs go on there. Trying again.");
    expect(screen.getByRole("button", { name: "Compiler" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Speed up the lexer/ })).toBeTruthy();
    expect(asked.length).toBe(n); // nothing asked of a host that is away
  });
});
