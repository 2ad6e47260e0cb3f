// The HTTP transport: same-origin fetch against /api with a bearer token, and
// SSE read over fetch streaming (EventSource cannot send Authorization).
import { ApiClient, ApiError, BackendUnavailableError, focusClientId, parseJSON, type RawResponse } from "./api";
import { hostPath } from "./host";
import { SSEParser, seqFromEventId } from "./sse";
import type { BusHandlers, Transport, WatchHandlers } from "./transport";
import type { RunEvent, Upload, WatchMessage } from "./types";

const TOKEN_KEY = "hermesdesk.token";

/**
 * Takes `?token=` from the first load's URL into sessionStorage and removes
 * it from the address bar (and history) so it is not shared by accident.
 */
export function takeToken(loc: Location = window.location, store: Storage = window.sessionStorage): string {
  const url = new URL(loc.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    store.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    try {
      window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    } catch {
      // Some embedders refuse replaceState; the token still works.
    }
    return fromUrl;
  }
  return store.getItem(TOKEN_KEY) ?? "";
}

export interface HttpOptions {
  token: string;
  /** Origin-relative base; "" for same origin. */
  base?: string;
  fetch?: typeof fetch;
  /** Waits between reconnects; injectable so tests need no timers. */
  sleep?: (ms: number) => Promise<void>;
  /** First reconnect delay; doubled per failure up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A host's core: every /api/ path goes through /api/hosts/{host}/ (transport/host.ts). */
  host?: string;
  /** How the person calls that host (hosts/remote.ts hostLabel). */
  hostName?: string;
}

/**
 * A stream read is parsed in slices of this many bytes (about fifteen
 * events of a flood: a 16 KB slice ran past 15 ms before the code was warm)…
 */
const SLICE_BYTES = 4 * 1024;
/** …and the main thread is given back once slices have run this long. */
const SLICE_BUDGET_MS = 4;

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/**
 * Lets the browser run what waits (input, a frame) and continues after it:
 * scheduler.yield where there is one (Chromium), a message otherwise (a
 * message is not clamped like a nested setTimeout).
 */
export function yieldToMain(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof s?.yield === "function") return s.yield();
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class HttpTransport implements Transport {
  readonly kind = "http" as const;
  readonly api: ApiClient;
  readonly host?: string;
  readonly hostName?: string;
  private readonly fetch: typeof fetch;
  private readonly base: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly baseDelay: number;
  private readonly maxDelay: number;

  constructor(private readonly opts: HttpOptions) {
    this.fetch = opts.fetch ?? ((...a) => window.fetch(...a));
    this.base = opts.base ?? "";
    this.sleep = opts.sleep ?? defaultSleep;
    this.baseDelay = opts.baseDelayMs ?? 500;
    this.maxDelay = opts.maxDelayMs ?? 15_000;
    this.host = opts.host || undefined;
    this.hostName = opts.hostName || undefined;
    this.api = new ApiClient((m, p, b) => this.request(m, p, b));
  }

  forHost(host: string, name?: string): HttpTransport {
    return new HttpTransport({ ...this.opts, host, hostName: name });
  }

  /** Where a path of the API is for this transport's core. */
  private url(path: string): string {
    return this.base + hostPath(this.host ?? "", path);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...extra };
    if (this.opts.token) h.Authorization = `Bearer ${this.opts.token}`;
    return h;
  }

  private async request(method: string, path: string, body?: string): Promise<RawResponse> {
    let res: Response;
    try {
      res = await this.fetch(this.url(path), {
        method,
        headers: this.headers({
          Accept: "application/json",
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        }),
        body,
        cache: "no-store",
        // Same-origin: the login cookie (set from the login link) rides along.
        credentials: "same-origin",
      });
    } catch {
      throw new BackendUnavailableError();
    }
    return { status: res.status, body: await res.text() };
  }

  async upload(file: Blob, name: string): Promise<Upload> {
    let res: Response;
    try {
      res = await this.fetch(this.url(`/api/uploads?name=${encodeURIComponent(name)}`), {
        method: "POST",
        headers: this.headers({ Accept: "application/json", "Content-Type": "application/octet-stream" }),
        body: file,
        cache: "no-store",
        credentials: "omit",
      });
    } catch {
      throw new BackendUnavailableError();
    }
    return parseJSON<Upload>({ status: res.status, body: await res.text() });
  }

  /**
   * Runs one stream after another until stopped or "terminal": at once
   * after a stream that delivered and then closed (a slow client cut off, a
   * goodbye), with exponential back-off from base() after one that closed
   * empty or failed. An ApiError with a status in finalStatuses ends it.
   */
  private reconnect(
    once: () => Promise<"terminal" | "ended" | "empty">,
    stopped: () => boolean,
    finalStatuses: readonly number[],
    onError: (err: unknown, final: boolean) => void,
    base: () => number,
  ): void {
    void (async () => {
      let failures = 0;
      while (!stopped()) {
        try {
          const r = await once();
          if (r === "terminal") return;
          failures = r === "ended" ? 0 : failures + 1;
        } catch (err) {
          if (stopped()) return;
          const final = err instanceof ApiError && finalStatuses.includes(err.status);
          onError(err, final);
          if (final) return;
          failures++;
        }
        if (stopped()) return;
        await this.sleep(failures === 0 ? 0 : Math.min(this.maxDelay, base() * 2 ** (failures - 1)));
      }
    })();
  }

  watchRun(runId: string, after: number, h: WatchHandlers): () => void {
    let stopped = false;
    let ac: AbortController | null = null;
    let cursor = after;
    let retryMs: number | undefined;

    const once = async (): Promise<"terminal" | "ended" | "empty"> => {
      ac = new AbortController();
      const headers = this.headers({ Accept: "text/event-stream" });
      // Query and header agree; the server lets the query win.
      if (cursor > 0) headers["Last-Event-ID"] = `${runId}:${cursor}`;
      const res = await this.fetch(this.url(`/api/runs/${encodeURIComponent(runId)}/events?after=${cursor}`), {
        headers,
        signal: ac.signal,
        cache: "no-store",
        // Same-origin: the login cookie (set from the login link) rides along.
        credentials: "same-origin",
      });
      if (res.status >= 400) {
        throw new ApiError(res.status, `http_${res.status}`, `Cannot follow run (${res.status})`);
      }
      const ct = res.headers.get("content-type") ?? "";
      if (!ct.includes("text/event-stream") || !res.body) throw new BackendUnavailableError();

      let terminal = false;
      let got = false;
      let batch: RunEvent[] = [];
      const parser = new SSEParser({
        onMessage: (m) => {
          let ev: RunEvent;
          try {
            ev = JSON.parse(m.data) as RunEvent;
          } catch {
            return; // a final notice or a malformed frame: never fatal
          }
          if (typeof ev?.seq !== "number") return;
          batch.push(ev);
          const s = seqFromEventId(m.id) ?? ev.seq;
          if (s > cursor) cursor = s;
          if (ev.terminal || ev.type === "done") terminal = true;
        },
        onRetry: (ms) => (retryMs = ms),
      });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      // A flooding run fills the stream faster than it is read: one read
      // can hold megabytes, thousands of events. They are parsed and
      // handed on in slices, giving the main thread back (input, frames)
      // whenever a slice runs past the budget (docs/ARCHITECTURE.md
      // §Session view, "A flood stays responsive").
      let since = now();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (let off = 0; off < value.length; off += SLICE_BYTES) {
            if (now() - since > SLICE_BUDGET_MS) {
              await yieldToMain();
              since = now();
              if (stopped) return "ended";
            }
            parser.push(dec.decode(value.subarray(off, off + SLICE_BYTES), { stream: true }));
            if (batch.length > 0) {
              got = true;
              const b = batch;
              batch = [];
              if (!stopped) h.onEvents(b);
            }
            if (terminal) return "terminal";
          }
        }
      } finally {
        reader.cancel().catch(() => {});
      }
      return got ? "ended" : "empty";
    };

    this.reconnect(once, () => stopped, [401, 403, 404], (err, final) => h.onError?.(err, final), () => retryMs ?? this.baseDelay);

    return () => {
      stopped = true;
      ac?.abort();
    };
  }

  watchBus(h: BusHandlers): () => void {
    let stopped = false;
    let ac: AbortController | null = null;

    // One connection: "ended" after a goodbye or a stream that delivered.
    const once = async (): Promise<"ended" | "empty"> => {
      ac = new AbortController();
      // client: this page's focus claim ends with its last stream (a tab closed or gone).
      const res = await this.fetch(`${this.base}/api/watch?client=${encodeURIComponent(focusClientId)}`, {
        headers: this.headers({ Accept: "text/event-stream" }),
        signal: ac.signal,
        cache: "no-store",
        credentials: "omit",
      });
      if (res.status >= 400) throw new ApiError(res.status, `http_${res.status}`, `Cannot watch (${res.status})`);
      const ct = res.headers.get("content-type") ?? "";
      if (!ct.includes("text/event-stream") || !res.body) throw new BackendUnavailableError();
      let got = false;
      let bye = false;
      const parser = new SSEParser({
        onMessage: (m) => {
          let msg: WatchMessage;
          try {
            msg = JSON.parse(m.data) as WatchMessage;
          } catch {
            return;
          }
          if (!msg || typeof msg.type !== "string") return;
          got = true;
          if (msg.type === "goodbye") bye = true;
          else if (!stopped) h.onMessage(msg);
        },
      });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      try {
        while (!bye) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(dec.decode(value, { stream: true }));
        }
      } finally {
        reader.cancel().catch(() => {});
      }
      return got ? "ended" : "empty";
    };

    // A goodbye ends a stream that delivered: it reconnects at once for a
    // fresh snapshot.
    this.reconnect(once, () => stopped, [401, 403], (err) => h.onError?.(err), () => this.baseDelay);
    return () => {
      stopped = true;
      ac?.abort();
    };
  }
}
