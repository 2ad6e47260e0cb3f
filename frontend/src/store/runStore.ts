// Attaches to runs (docs/ARCHITECTURE.md §The watch bus): read journal pages after the cursor, then
// follow live; keeps one feed per run and tells the UI at most once per
// animation frame that something changed, so streaming does not re-render
// faster than the screen paints. It is the webview's one merger and pager:
// a transport that streams (HTTP: SSE) hands it events, one that only rings
// (the desktop window's doorbells) has it read the pages itself.
import { ApiError } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { RunEvent } from "../transport/types";
import { WatchBus } from "./bus";
import { lastSeqOf, RunFeed } from "./feed";
import type { RunView } from "./model";

export interface RunStoreOptions {
  /** The window's watch bus, shared by a store bound to another host. */
  bus?: WatchBus;
  /** Events a run opens with: the tail; older ones page in on demand. */
  tailWindow?: number;
  pageSize?: number;
  /** Schedules a flush; requestAnimationFrame in the app, sync in tests. */
  schedule?: (cb: () => void) => void;
  /**
   * Least time between two flushes, in ms (default FLUSH_INTERVAL_MS with
   * the app's animation-frame schedule, 0 with a given one).
   */
  flushInterval?: number;
  /** Feeds of detached runs kept for quick return. */
  keepDetached?: number;
}

/**
 * While events keep coming, the UI hears of them at most this often: a
 * flood re-renders its streaming row twenty times a second, not sixty,
 * which leaves the main thread room on a loaded machine. A change after a
 * quiet spell still shows at the next frame
 * (docs/ARCHITECTURE.md §Session view, "A flood stays responsive").
 */
export const FLUSH_INTERVAL_MS = 50;

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/** Events kept before a jump target, so the block it ends has its start. */
const JUMP_CONTEXT = 200;

interface Attachment {
  /** Settles when the first journal read is done (or failed). */
  ready: Promise<void>;
  stop?: () => void;
  filling: boolean;
  refill: boolean;
  /** The highest seq a doorbell said the journal holds: pages are read until then. */
  wanted: number;
}

export class RunStore {
  private readonly feeds = new Map<string, RunFeed>();
  private readonly attached = new Map<string, Attachment>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly anyListeners = new Set<(runId: string) => void>();
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private lastFlush = -Infinity;
  private readonly interval: number;
  private readonly versions = new Map<string, number>();
  private readonly shapes = new Map<string, { n: number; feed?: RunFeed; shape: number }>();
  /** Runs whose next flush changes their shape whatever their view says (a page in front, an error). */
  private readonly reshaped = new Set<string>();
  private readonly errors = new Map<string, unknown>();
  private readonly tail: number;
  private readonly page: number;
  private readonly schedule: (cb: () => void) => void;
  private readonly keep: number;
  /** The watch bus of this window (what changed anywhere). */
  readonly bus: WatchBus;

  constructor(
    private readonly transport: Transport,
    opts: RunStoreOptions = {},
  ) {
    // A host's sessions share this window's bus (transport/host.ts).
    this.bus = opts.bus ?? new WatchBus(transport);
    this.tail = opts.tailWindow ?? 2000;
    this.page = opts.pageSize ?? 500;
    this.schedule =
      opts.schedule ?? ((cb) => (typeof requestAnimationFrame === "function" ? requestAnimationFrame(() => cb()) : setTimeout(cb, 16)));
    this.keep = opts.keepDetached ?? 20;
    this.interval = opts.flushInterval ?? (opts.schedule ? 0 : FLUSH_INTERVAL_MS);
  }

  view(runId: string): RunView | undefined {
    return this.feeds.get(runId)?.view;
  }

  /** How many runs are followed now (bounded by the session view; issue 23.20). */
  get attachedCount(): number {
    return this.attached.size;
  }

  /** What stopped this run's reading or following (as thrown; ErrorBanner words it). */
  error(runId: string): unknown {
    return this.errors.get(runId);
  }

  /**
   * Reads and follows the run again after a failure (the banner's Retry):
   * the feed keeps what it holds and resumes after its last seq.
   */
  refollow(runId: string): Promise<void> {
    const a = this.attached.get(runId);
    a?.stop?.();
    this.attached.delete(runId);
    this.errors.delete(runId);
    this.markDirty(runId, true);
    return this.attach(runId, { sessionId: this.feeds.get(runId)?.view.sessionId });
  }

  /** Changes on every flushed update of the run; a snapshot for React. */
  version(runId: string): number {
    return this.versions.get(runId) ?? 0;
  }

  /**
   * Changes on a flushed update that changed more than what one existing
   * block shows (RunView.shape): a block added or closed, the status, a
   * prompt, older events paged in, an error. Text streaming into the open
   * block leaves it alone, so the session view does not re-render for it
   * (docs/ARCHITECTURE.md §Session view).
   */
  shapeVersion(runId: string): number {
    return this.shapes.get(runId)?.n ?? 0;
  }

  hasOlder(runId: string): boolean {
    const f = this.feeds.get(runId);
    return !!f && f.base > 0;
  }

  subscribe(runId: string, cb: () => void): () => void {
    let s = this.listeners.get(runId);
    if (!s) this.listeners.set(runId, (s = new Set()));
    s.add(cb);
    return () => {
      s.delete(cb);
      if (s.size === 0 && this.listeners.get(runId) === s) this.listeners.delete(runId);
    };
  }

  /** Every flushed change of any run (sidebar markers, header state). */
  subscribeAll(cb: (runId: string) => void): () => void {
    this.anyListeners.add(cb);
    return () => this.anyListeners.delete(cb);
  }

  /**
   * Reads what the journal holds after this view's cursor, then follows
   * live. `lastSeq` (from GET /api/runs/{id}) lets a long run open at its
   * tail instead of replaying from seq 1. Attaching an attached run
   * resolves when its first read is done.
   */
  attach(runId: string, hint: { sessionId?: string; lastSeq?: number } = {}): Promise<void> {
    const cur = this.attached.get(runId);
    if (cur) return cur.ready;
    const a: Attachment = { ready: Promise.resolve(), filling: false, refill: false, wanted: 0 };
    this.attached.set(runId, a);
    a.ready = this.open(runId, a, hint);
    return a.ready;
  }

  private async open(runId: string, a: Attachment, hint: { sessionId?: string; lastSeq?: number }): Promise<void> {
    let feed = this.feeds.get(runId);
    if (!feed) {
      const base = hint.lastSeq && hint.lastSeq > this.tail ? hint.lastSeq - this.tail : 0;
      feed = new RunFeed(runId, hint.sessionId, base);
      this.feeds.set(runId, feed);
    }
    // A ringing transport is listened to before the first read: a doorbell
    // rung meanwhile raises what that read pages to, and none is lost.
    const rings = !!this.transport.ringRun;
    if (rings) a.stop = this.transport.ringRun!(runId, (seq) => this.ring(runId, a, seq));
    try {
      await this.fill(runId);
    } catch (err) {
      this.fail(runId, err);
    }
    if (this.attached.get(runId) !== a) return; // detached meanwhile
    const f = this.feeds.get(runId);
    if (!f || f.view.terminal) return this.unring(a);
    if (rings) return;
    a.stop = this.transport.watchRun?.(runId, f.lastSeq, {
      onEvents: (evs) => this.live(runId, evs),
      onError: (err, final) => {
        if (final) this.fail(runId, err);
      },
    });
  }

  /**
   * A doorbell: the journal holds this run's events through seq. One page
   * read at a time (fill's single flight); a burst of doorbells while it
   * runs only raises what it pages to, so it costs one read, not one each.
   */
  private ring(runId: string, a: Attachment, seq: number): void {
    const f = this.feeds.get(runId);
    if (this.attached.get(runId) !== a || !f) return;
    if (seq > a.wanted) a.wanted = seq;
    if (seq <= f.lastSeq || a.filling) return; // held already, or the read under way pages to it
    void this.fill(runId).then(
      () => this.feeds.get(runId)?.view.terminal && this.unring(a),
      (err) => {
        // A run that is gone stays failed; anything else is tried again at the next doorbell.
        if (!(err instanceof ApiError && err.status === 404)) return;
        this.fail(runId, err);
        this.unring(a);
      },
    );
  }

  /** Stops listening to a ringing transport for a run that ended. */
  private unring(a: Attachment): void {
    if (!this.transport.ringRun) return;
    a.stop?.();
    a.stop = undefined;
  }

  detach(runId: string): void {
    const a = this.attached.get(runId);
    a?.stop?.();
    this.attached.delete(runId);
    // Bound memory: forget the oldest detached feeds.
    const detached = [...this.feeds.keys()].filter((id) => !this.attached.has(id));
    for (const id of detached.slice(0, Math.max(0, detached.length - this.keep))) {
      this.feeds.delete(id);
      this.versions.delete(id);
      this.shapes.delete(id);
      this.errors.delete(id);
    }
  }

  detachAll(): void {
    for (const id of [...this.attached.keys()]) this.detach(id);
  }

  /**
   * The applied event with this seq, when the window holds it (for a text
   * chunk: the joined chunks it is part of).
   */
  event(runId: string, seq: number): RunEvent | undefined {
    const evs = this.feeds.get(runId)?.events;
    if (!evs) return undefined;
    let lo = 0;
    let hi = evs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = evs[mid]!;
      if (e.seq <= seq && seq <= lastSeqOf(e)) return e;
      if (e.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Pages the events before the window in front of it. */
  async loadOlder(runId: string): Promise<void> {
    const f = this.feeds.get(runId);
    if (!f || f.base === 0) return;
    await this.prepend(runId, Math.max(0, f.base - this.tail));
  }

  /**
   * Pages back just far enough that `seq` (and a little before it) is in
   * the window: a jump to an old event reads only the events between it
   * and the window, never the whole history. False when the run has no feed.
   */
  async loadBack(runId: string, seq: number): Promise<boolean> {
    const f = this.feeds.get(runId);
    if (!f) return false;
    if (seq > f.base) return true;
    await this.prepend(runId, Math.max(0, seq - 1 - JUMP_CONTEXT));
    return this.feeds.has(runId);
  }

  /** Reads the events from newBase to the window's base and folds them in front. */
  private async prepend(runId: string, newBase: number): Promise<void> {
    const f = this.feeds.get(runId);
    if (!f || newBase >= f.base) return;
    const older: RunEvent[] = [];
    let after = newBase;
    while (after < f.base) {
      const p = await this.transport.api.eventsPage(runId, after, this.page);
      const evs = p.events.filter((e) => e.seq > after && e.seq <= f.base);
      older.push(...evs);
      if (evs.length === 0 || p.events.some((e) => e.seq >= f.base)) break;
      after = evs[evs.length - 1]!.seq;
    }
    const cur = this.feeds.get(runId);
    if (cur !== f) return;
    this.feeds.set(runId, f.withOlder(older, newBase));
    this.markDirty(runId, true);
  }

  /** Live events from the transport; a gap triggers a journal read. */
  live(runId: string, evs: RunEvent[]): void {
    const f = this.feeds.get(runId);
    if (!f) return;
    const r = f.ingest(evs, false);
    if (r.applied > 0) this.markDirty(runId);
    if (r.gap) void this.fill(runId).catch((err) => this.fail(runId, err));
  }

  /**
   * Reads journal pages after the cursor until caught up (single flight):
   * while a page is full, or a doorbell said the journal holds more, and
   * the last page brought something new.
   */
  private async fill(runId: string): Promise<void> {
    const a = this.attached.get(runId);
    if (a?.filling) {
      a.refill = true;
      return;
    }
    if (a) a.filling = true;
    try {
      do {
        if (a) a.refill = false;
        for (;;) {
          const f = this.feeds.get(runId);
          if (!f || f.view.terminal) return;
          const p = await this.transport.api.eventsPage(runId, f.lastSeq, this.page);
          const cur = this.feeds.get(runId);
          if (!cur) return;
          const r = cur.ingest(p.events, true);
          if (r.applied > 0) this.markDirty(runId);
          const full = p.more ?? p.events.length >= this.page;
          if (r.applied === 0 || (!full && cur.lastSeq >= (a?.wanted ?? 0))) break;
        }
      } while (a?.refill);
    } finally {
      if (a) a.filling = false;
    }
  }

  private fail(runId: string, err: unknown): void {
    this.errors.set(runId, err ?? "Cannot read this run");
    this.markDirty(runId, true);
  }

  private markDirty(runId: string, reshaped = false): void {
    this.dirty.add(runId);
    if (reshaped) this.reshaped.add(runId);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastFlush + this.interval - now();
    if (wait > 0) setTimeout(() => this.schedule(() => this.flush()), wait);
    else this.schedule(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    this.lastFlush = now();
    const ids = [...this.dirty];
    this.dirty.clear();
    const reshaped = new Set(this.reshaped);
    this.reshaped.clear();
    for (const id of ids) {
      this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
      const feed = this.feeds.get(id);
      const shape = feed?.view.shape ?? 0;
      const s = this.shapes.get(id);
      if (!s || reshaped.has(id) || s.feed !== feed || s.shape !== shape) this.shapes.set(id, { n: (s?.n ?? 0) + 1, feed, shape });
      this.listeners.get(id)?.forEach((cb) => cb());
      this.anyListeners.forEach((cb) => cb(id));
    }
  }
}
