import { describe, expect, it } from "vitest";
import { ApiClient } from "../transport/api";
import type { BusHandlers, Transport } from "../transport/transport";
import type { RunState, WatchMessage } from "../transport/types";
import { WailsTransport } from "../transport/wails";
import { WatchBus } from "./bus";

const state = (id: string, status: RunState["status"], extra: Partial<RunState> = {}): RunState => ({
  run_id: id, session_id: "s1", agent: "demo", status, last_seq: 1, created_at: `2026-01-01T00:00:0${id.slice(-1)}Z`, ...extra,
});

function busWith(): { bus: WatchBus; h: () => BusHandlers; got: WatchMessage[] } {
  let handlers: BusHandlers | undefined;
  const t: Transport = {
    kind: "http",
    api: new ApiClient(async () => ({ status: 404, body: "{}" })),
    watchRun: () => () => {},
    watchBus: (h) => ((handlers = h), () => {}),
  };
  const bus = new WatchBus(t);
  const got: WatchMessage[] = [];
  bus.subscribe((m) => got.push(m));
  bus.start();
  return { bus, h: () => handlers!, got };
}

describe("WatchBus", () => {
  it("keeps the active runs from the snapshot and run.changed, needs-you included", () => {
    const { bus, h } = busWith();
    h().onMessage({ seq: 4, type: "snapshot", snapshot: { runs: [state("r2", "running"), state("r1", "queued")], sessions_version: 7 } });
    expect(bus.active().map((r) => r.id)).toEqual(["r1", "r2"]); // oldest first
    expect(bus.sessionsVersion).toBe(7);
    h().onMessage({ seq: 5, type: "run.changed", run: state("r2", "awaiting_approval", { pending: { kind: "approval", id: "ap1", title: "Run make", options: [{ id: "y", label: "Allow" }] } }) });
    expect(bus.active().find((r) => r.id === "r2")).toMatchObject({ status: "awaiting_approval", pending_approval_id: "ap1" });
    h().onMessage({ seq: 6, type: "run.changed", run: state("r1", "completed") });
    expect(bus.active().map((r) => r.id)).toEqual(["r2"]);
    // A new snapshot (a reconnect) replaces everything.
    h().onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 9 } });
    expect(bus.active()).toEqual([]);
    expect(bus.connected).toBe(true);
  });

  it("says goodbye to its listeners when the bus becomes unreachable", () => {
    const { bus, h, got } = busWith();
    h().onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } });
    h().onError?.(new Error("down"));
    expect(bus.connected).toBe(false);
    expect(got.map((m) => m.type)).toEqual(["snapshot", "goodbye"]);
  });
});

describe("WailsTransport.watchBus", () => {
  it("starts from the snapshot, drops what it covers, and resyncs on a gap", async () => {
    let snapSeq = 10;
    const listeners = new Set<(...a: unknown[]) => void>();
    const requests: string[] = [];
    const win = {
      location: { protocol: "wails:" },
      go: { app: { Desktop: { async Request(_m: string, p: string) {
        requests.push(p);
        return { status: 200, body: JSON.stringify({ seq: snapSeq, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } }) };
      } } } },
      runtime: { EventsOn: (name: string, cb: (...a: unknown[]) => void) => (name === "watch" && listeners.add(cb), () => listeners.delete(cb)) },
    };
    const emit = (m: WatchMessage) => listeners.forEach((cb) => cb(m));
    const t = new WailsTransport({ win });
    const got: number[] = [];
    const stop = t.watchBus({ onMessage: (m) => got.push(m.seq) });
    const flush = () => new Promise((r) => setTimeout(r, 0));
    await flush();
    emit({ seq: 10, type: "session.changed" }); // covered by the snapshot
    emit({ seq: 11, type: "session.changed" });
    expect(got).toEqual([10, 11]);
    snapSeq = 20;
    emit({ seq: 13, type: "session.changed" }); // 12 was lost: resync
    await flush();
    expect(requests).toEqual(["/api/watch", "/api/watch"]);
    expect(got).toEqual([10, 11, 20]);
    emit({ seq: 21, type: "run.changed", run: state("r1", "running") });
    expect(got).toEqual([10, 11, 20, 21]);
    stop();
    emit({ seq: 22, type: "session.changed" });
    expect(got).toEqual([10, 11, 20, 21]);
  });
  it("counts only this machine's runs for the quit question, and keeps the hosts", () => {
    const { bus, h } = busWith();
    h().onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [state("r1", "running"), state("r2", "running", { host: "devbox" })], sessions_version: 1,
      hosts: [{ host: "devbox", reachable: true, since: "2026-11-27T10:00:00Z" }] } });
    expect(bus.active()).toHaveLength(2);
    expect(bus.localActive()).toBe(1);
    h().onMessage({ seq: 2, type: "host.changed", host_state: { host: "devbox", reachable: false, error: "gone", since: "2026-11-27T10:01:00Z" } });
    expect(bus.hosts()).toEqual([{ host: "devbox", reachable: false, error: "gone", since: "2026-11-27T10:01:00Z" }]);
  });
  it("adds, changes and forgets a host on host.changed", () => {
    const { bus, h } = busWith();
    h().onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1 } });
    const record = { id: "host_1", target: "me@box", status: "ready", os: "linux", arch: "amd64", version: "", note: "", added_at: "2026-11-27T10:00:00Z" };
    h().onMessage({ seq: 2, type: "host.changed", host_state: { host: "host_1", record, reachable: false } });
    expect(bus.hosts().map((x) => x.record?.target)).toEqual(["me@box"]);
    h().onMessage({ seq: 3, type: "host.changed", host_state: { host: "host_1", removed: true, reachable: false } });
    expect(bus.hosts()).toEqual([]);
  });
});
