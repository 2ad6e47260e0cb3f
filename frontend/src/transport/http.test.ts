import { describe, expect, it } from "vitest";
import { HttpTransport } from "./http";
import type { RunEvent } from "./types";
import { BackendUnavailableError } from "./api";

const R = "run_1";
function env(seq: number, type = "token.delta"): RunEvent {
  return { event_id: `${R}:${seq}`, seq, run_id: R, session_id: "s", type, created_at: seq, terminal: type === "done", payload: { text: `t${seq}` } };
}
function frame(e: RunEvent): string {
  return `id: ${e.event_id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

interface Call {
  url: string;
  headers: Record<string, string>;
}

/** A fake server: each connection serves the next script of chunks. */
function fakeFetch(scripts: (string[] | number | Error)[]) {
  const calls: Call[] = [];
  const f = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) } });
    const s = scripts.shift();
    if (s === undefined) return new Promise<Response>(() => {}); // hang: no more connections
    if (s instanceof Error) throw s;
    if (typeof s === "number") return new Response("{}", { status: s });
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of s) c.enqueue(enc.encode(chunk));
        c.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  return { f: f as typeof fetch, calls };
}

function watch(t: HttpTransport, after = 0) {
  const got: number[] = [];
  const errors: [unknown, boolean][] = [];
  let resolve!: () => void;
  const finished = new Promise<void>((r) => (resolve = r));
  const stop = t.watchRun(R, after, {
    onEvents: (evs) => {
      got.push(...evs.map((e) => e.seq));
      if (evs.some((e) => e.terminal)) resolve();
    },
    onError: (err, final) => {
      errors.push([err, final]);
      if (final) resolve();
    },
  });
  return { got, errors, finished, stop };
}

describe("HttpTransport.watchRun", () => {
  it("hands a huge read on in slices, in order, nothing lost or repeated (a flood)", async () => {
    // One read of ~5,000 events (a stream that filled while the page was busy).
    const all = Array.from({ length: 5000 }, (_, i) => frame(env(i + 1))).join("") + frame(env(5001, "done"));
    const { f } = fakeFetch([[all]]);
    const t = new HttpTransport({ token: "x", fetch: f, sleep: async () => {} });
    const batches: number[] = [];
    const got: number[] = [];
    let resolve!: () => void;
    const finished = new Promise<void>((r) => (resolve = r));
    t.watchRun(R, 0, {
      onEvents: (evs) => {
        batches.push(evs.length);
        got.push(...evs.map((e) => e.seq));
        if (evs.some((e) => e.terminal)) resolve();
      },
    });
    await finished;
    expect(got).toEqual(Array.from({ length: 5001 }, (_, i) => i + 1));
    expect(batches.length).toBeGreaterThan(10);
  });

  it("reconnects after a dropped stream with Last-Event-ID and ?after= from the last id", async () => {
    const first = frame(env(1)) + frame(env(2)) + frame(env(3)).slice(0, 20); // cut mid-event
    const { f, calls } = fakeFetch([[first], new TypeError("network"), [frame(env(3)), frame(env(4)), frame(env(5, "done"))]]);
    const sleeps: number[] = [];
    const t = new HttpTransport({ token: "tok", fetch: f, sleep: async (ms) => void sleeps.push(ms), baseDelayMs: 100 });
    const w = watch(t);
    await w.finished;
    expect(w.got).toEqual([1, 2, 3, 4, 5]);
    expect(calls.map((c) => c.url)).toEqual([`/api/runs/${R}/events?after=0`, `/api/runs/${R}/events?after=2`, `/api/runs/${R}/events?after=2`]);
    expect(calls[0]!.headers["Last-Event-ID"]).toBeUndefined();
    expect(calls[1]!.headers["Last-Event-ID"]).toBe(`${R}:2`);
    expect(calls[2]!.headers["Last-Event-ID"]).toBe(`${R}:2`);
    expect(calls.every((c) => c.headers.Authorization === "Bearer tok")).toBe(true);
    expect(calls[0]!.headers.Accept).toBe("text/event-stream");
    expect(w.errors.map(([, final]) => final)).toEqual([false]);
    // A stream that delivered resumes at once; a failed connect backs off.
    expect(sleeps).toEqual([0, 100]);
  });

  it("backs off exponentially on repeated failures and honours retry:", async () => {
    const { f } = fakeFetch([["retry: 1000\n\n"], 503, 503, [frame(env(1, "done"))]]);
    const sleeps: number[] = [];
    const t = new HttpTransport({ token: "", fetch: f, sleep: async (ms) => void sleeps.push(ms), baseDelayMs: 100 });
    const w = watch(t);
    await w.finished;
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(w.got).toEqual([1]);
  });

  it("stops for good on 401 and 404", async () => {
    for (const status of [401, 404]) {
      const { f, calls } = fakeFetch([status]);
      const t = new HttpTransport({ token: "x", fetch: f, sleep: async () => {} });
      const w = watch(t);
      await w.finished;
      expect(w.errors).toHaveLength(1);
      expect(w.errors[0]![1]).toBe(true);
      expect(calls).toHaveLength(1);
    }
  });

  it("ignores frames that are not envelopes", async () => {
    const { f } = fakeFetch([[": hi\n\n", "event: notice\ndata: falling behind, reconnect\n\n", frame(env(1)), frame(env(2, "done"))]]);
    const t = new HttpTransport({ token: "", fetch: f, sleep: async () => {} });
    const w = watch(t);
    await w.finished;
    expect(w.got).toEqual([1, 2]);
  });

  it("stop() aborts the stream and delivers nothing more", async () => {
    let aborted = false;
    const f = (async (_u: RequestInfo | URL, init?: RequestInit) => {
      init?.signal?.addEventListener("abort", () => (aborted = true));
      return new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch;
    const t = new HttpTransport({ token: "", fetch: f, sleep: async () => {} });
    const w = watch(t);
    await Promise.resolve();
    await Promise.resolve();
    w.stop();
    expect(aborted).toBe(true);
  });
});

describe("HttpTransport requests", () => {
  it("sends JSON with the bearer token and parses answers", async () => {
    const seen: { url: string; init?: RequestInit }[] = [];
    const f = (async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(url), init });
      return new Response(JSON.stringify({ accepted: true, status: "accepted" }), { status: 200 });
    }) as typeof fetch;
    const t = new HttpTransport({ token: "tok", fetch: f });
    expect(await t.api.approve("r 1", "ap/1", "allow")).toEqual({ accepted: true, status: "accepted" });
    expect(seen[0]!.url).toBe("/api/runs/r%201/approvals/ap%2F1");
    expect(seen[0]!.init?.method).toBe("POST");
    expect(seen[0]!.init?.body).toBe('{"choice":"allow"}');
    expect((seen[0]!.init?.headers as Record<string, string>).Authorization).toBe("Bearer tok");
  });

  it("says the backend is not connected when fetch fails or HTML comes back", async () => {
    const down = new HttpTransport({ token: "", fetch: (async () => { throw new TypeError("refused"); }) as typeof fetch });
    await expect(down.api.listProjects()).rejects.toBeInstanceOf(BackendUnavailableError);
    const html = new HttpTransport({ token: "", fetch: (async () => new Response("<!doctype html><html></html>", { status: 200 })) as typeof fetch });
    await expect(html.api.listProjects()).rejects.toBeInstanceOf(BackendUnavailableError);
    expect(await html.api.health()).toBe(false);
  });

  it("turns error bodies into ApiError with the service's code", async () => {
    const t = new HttpTransport({ token: "", fetch: (async () => new Response(JSON.stringify({ error: { code: "conflict", message: "Already sent" } }), { status: 409 })) as typeof fetch });
    await expect(t.api.startRun({ session_id: "s", message: "m", client_request_id: "c" })).rejects.toMatchObject({ status: 409, code: "conflict", message: "Already sent" });
  });
});
