import { describe, expect, it, vi } from "vitest";
import { ApiClient } from "../transport/api";
import type { Transport, WatchHandlers } from "../transport/transport";
import type { RunEvent } from "../transport/types";
import { lastSeqOf } from "./feed";
import { RunStore } from "./runStore";
import { evts } from "./testEvents";

const R = "run_s";

/** A transport over an in-memory journal; live delivery is driven by the test. */
function fakeTransport(journal: RunEvent[]) {
  const pages: number[] = [];
  const watches: { after: number; h: WatchHandlers; stopped: boolean }[] = [];
  const api = new ApiClient(async (_m, path) => {
    const m = /events\?after=(\d+)&limit=(\d+)/.exec(path)!;
    const after = Number(m[1]);
    pages.push(after);
    return { status: 200, body: JSON.stringify({ events: journal.filter((e) => e.seq > after).slice(0, Number(m[2])) }) };
  });
  const t: Transport = {
    kind: "http",
    api,
    watchRun(_id, after, h) {
      const w = { after, h, stopped: false };
      watches.push(w);
      return () => (w.stopped = true);
    },
  };
  return { t, pages, watches };
}

const text = (s: RunStore) =>
  s.view(R)!.blocks.filter((b) => b.kind === "text").map((b) => (b as { text: string }).text).join("|");

describe("RunStore", () => {
  const all = evts(R, Array.from({ length: 30 }, (_, i) => ["token.delta", { text: String.fromCharCode(97 + (i % 26)) }] as [string, unknown]));

  it("reads pages after the cursor, then follows live from the last seq", async () => {
    const { t, pages, watches } = fakeTransport(all.slice(0, 12));
    const s = new RunStore(t, { pageSize: 5, schedule: (cb) => cb() });
    let notified = 0;
    s.subscribe(R, () => notified++);
    await s.attach(R);
    expect(pages).toEqual([0, 5, 10]);
    expect(watches).toHaveLength(1);
    expect(watches[0]!.after).toBe(12);
    expect(s.view(R)!.lastSeq).toBe(12);
    expect(notified).toBeGreaterThan(0);
    watches[0]!.h.onEvents(all.slice(10, 14)); // overlaps: dedupe
    expect(s.view(R)!.lastSeq).toBe(14);
    expect(text(s)).toBe("abcdefghijklmn");
  });

  it("fills a gap in live events from the journal", async () => {
    const journal = all.slice(0, 5);
    const { t, pages, watches } = fakeTransport(journal);
    const s = new RunStore(t, { pageSize: 100, schedule: (cb) => cb() });
    await s.attach(R);
    journal.push(...all.slice(5, 9));
    watches[0]!.h.onEvents(all.slice(7, 9)); // 6 and 7 missed
    await new Promise((r) => setTimeout(r, 0));
    expect(pages).toEqual([0, 5]);
    expect(s.view(R)!.lastSeq).toBe(9);
    expect(text(s)).toBe("abcdefghi");
  });

  it("opens a long run at its tail and pages older events in front", async () => {
    const { t } = fakeTransport(all);
    const s = new RunStore(t, { tailWindow: 10, pageSize: 4, schedule: (cb) => cb() });
    await s.attach(R, { lastSeq: 30 });
    expect(s.view(R)!.firstSeq).toBe(21);
    expect(s.hasOlder(R)).toBe(true);
    expect(text(s)).toBe("uvwxyzabcd");
    await s.loadOlder(R);
    expect(s.view(R)!.firstSeq).toBe(11);
    expect(text(s)).toBe("klmnopqrstuvwxyzabcd");
    await s.loadOlder(R);
    await s.loadOlder(R);
    expect(s.hasOlder(R)).toBe(false);
    expect(text(s)).toBe("abcdefghijklmnopqrstuvwxyzabcd");
  });

  it("pages back only as far as a jump target, then still follows live", async () => {
    const long = evts(R, Array.from({ length: 1000 }, () => ["token.delta", { text: "x" }] as [string, unknown]));
    const { t, pages, watches } = fakeTransport(long);
    const s = new RunStore(t, { tailWindow: 50, pageSize: 100, schedule: (cb) => cb() });
    await s.attach(R, { lastSeq: 1000 });
    expect(s.event(R, 500)).toBeUndefined();
    pages.length = 0;
    expect(await s.loadBack(R, 500)).toBe(true);
    // From a little before the target up to the old window, nothing earlier.
    expect(pages[0]).toBe(299);
    expect(Math.min(...pages)).toBe(299);
    expect(pages.every((a) => a < 950)).toBe(true);
    expect(s.view(R)!.firstSeq).toBe(300);
    // The chunks are kept joined: the event holding seq 500 stands for it.
    const e = s.event(R, 500)!;
    expect(e.seq).toBeLessThanOrEqual(500);
    expect(lastSeqOf(e)).toBeGreaterThanOrEqual(500);
    expect(s.hasOlder(R)).toBe(true);
    // Already in the window: no read at all.
    pages.length = 0;
    await s.loadBack(R, 800);
    expect(pages).toEqual([]);
    // Live events still land after the jump.
    watches[0]!.h.onEvents(evts(R, [["token.delta", { text: "y" }]], 1001));
    expect(s.view(R)!.lastSeq).toBe(1001);
    expect(await s.loadBack("unknown", 3)).toBe(false);
  });

  it("resolves a second attach when the first read is done", async () => {
    const { t } = fakeTransport(all);
    const s = new RunStore(t, { pageSize: 10, schedule: (cb) => cb() });
    void s.attach(R);
    await s.attach(R);
    expect(s.view(R)!.lastSeq).toBe(30);
  });

  it("does not follow a finished run and stops following on detach", async () => {
    const done = [...all.slice(0, 3), ...evts(R, [["done", { status: "completed" }]], 4)];
    const { t, watches } = fakeTransport(done);
    const s = new RunStore(t, { schedule: (cb) => cb() });
    await s.attach(R);
    expect(watches).toHaveLength(0);
    expect(s.view(R)!.status).toBe("completed");

    const live = fakeTransport(all.slice(0, 2));
    const s2 = new RunStore(live.t, { schedule: (cb) => cb() });
    await s2.attach(R);
    s2.detach(R);
    expect(live.watches[0]!.stopped).toBe(true);
  });

  it("coalesces notifications until the scheduled flush", async () => {
    const { t, watches } = fakeTransport([]);
    const queued: (() => void)[] = [];
    const s = new RunStore(t, { schedule: (cb) => queued.push(cb) });
    await s.attach(R);
    let n = 0;
    s.subscribe(R, () => n++);
    for (const e of all.slice(0, 10)) watches[0]!.h.onEvents([e]);
    expect(n).toBe(0);
    expect(queued.length).toBe(1);
    queued.shift()!();
    expect(n).toBe(1);
    expect(s.version(R)).toBe(1);
  });

  it("moves a run's shape version only when more than the streaming block changed", async () => {
    const { t, watches } = fakeTransport(evts(R, [["run.started", { agent: "demo" }]]));
    const s = new RunStore(t, { schedule: (cb) => cb() });
    await s.attach(R);
    const at = () => [s.version(R), s.shapeVersion(R)];
    expect(at()).toEqual([1, 1]);
    const live = (type: string, payload: unknown) => watches[0]!.h.onEvents(evts(R, [[type, payload]], s.view(R)!.lastSeq + 1));
    live("token.delta", { text: "a" }); // a new block
    expect(at()).toEqual([2, 2]);
    live("token.delta", { text: "b" }); // streaming into it
    live("token.delta", { text: "c" });
    expect(at()).toEqual([4, 2]);
    live("tool.started", { tool_call_id: "t1", name: "bash" });
    expect(at()).toEqual([5, 3]);
    live("done", { status: "completed" });
    expect(at()).toEqual([6, 4]);
  });

  it("flushes a steady stream at most once per interval, and a change after a quiet spell at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const { t, watches } = fakeTransport([]);
      const queued: (() => void)[] = [];
      const s = new RunStore(t, { schedule: (cb) => queued.push(cb), flushInterval: 50 });
      await s.attach(R);
      const send = (i: number) => watches[0]!.h.onEvents([all[i]!]);
      send(0);
      expect(queued).toHaveLength(1); // the first change: the next frame
      queued.shift()!();
      send(1);
      send(2);
      expect(queued).toHaveLength(0); // within the interval: waits
      vi.advanceTimersByTime(49);
      expect(queued).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(queued).toHaveLength(1);
      queued.shift()!();
      expect(s.version(R)).toBe(2);
      vi.advanceTimersByTime(200); // quiet
      send(3);
      expect(queued).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
