// One run's ordered intake: deduplicates by (run_id, seq), holds live events
// that arrive past a gap until the gap is filled, and keeps the window's
// events so older pages can be folded in front of it. Consecutive text
// chunks are kept as one growing event, not one object per chunk: a flood
// of 100,000 chunks kept 100,000 envelopes alive (docs/ARCHITECTURE.md
// §Session view, "A flood stays responsive").
import type { RunEvent } from "../transport/types";
import { applyEvent } from "./fold";
import { newRunView, type RunView } from "./model";

export interface IngestResult {
  applied: number;
  duplicates: number;
  /** A live event arrived past a gap: read a page after `view.lastSeq`. */
  gap: boolean;
}

/** Events held past a gap, at most; beyond it the oldest are dropped (a page read refetches them). */
const MAX_HELD = 10_000;

/**
 * A kept event. `through` marks consecutive chunks joined into one: the
 * event stands for seqs seq…through, its text is theirs in order, and it
 * folds exactly as they did (fold.ts appends a chunk to the open block).
 */
export type KeptEvent = RunEvent & { through?: number };

/** Chunks that only append text to the block streaming before them. */
const JOINS = new Set(["token.delta", "reasoning.delta"]);

function chunkText(ev: RunEvent): string {
  const t = (ev.payload as { text?: unknown } | null | undefined)?.text;
  return typeof t === "string" ? t : "";
}

/** The last seq an event stands for. */
export function lastSeqOf(ev: KeptEvent): number {
  return ev.through ?? ev.seq;
}

export class RunFeed {
  view: RunView;
  /**
   * The window's applied events in seq order, consecutive text chunks of
   * one kind joined into one event (KeptEvent.through).
   */
  readonly events: KeptEvent[] = [];
  private readonly held = new Map<number, RunEvent>();
  /** Joined events this feed made (and may grow); any other is copied first. */
  private readonly joins = new WeakSet<KeptEvent>();

  constructor(
    readonly runId: string,
    sessionId = "",
    /** The seq before the first one this window holds (tail window). */
    readonly base = 0,
  ) {
    this.view = newRunView(runId, sessionId, base + 1);
  }

  get lastSeq(): number {
    return this.view.lastSeq;
  }

  get heldCount(): number {
    return this.held.size;
  }

  /**
   * Takes events in any order. `journal` marks a page read from the journal:
   * it is authoritative, so a hole in it (compaction) is not waited for.
   * Live events must continue exactly at lastSeq + 1.
   */
  ingest(events: readonly RunEvent[], journal: boolean): IngestResult {
    const r: IngestResult = { applied: 0, duplicates: 0, gap: false };
    const sorted = [...events].sort((a, b) => a.seq - b.seq);
    for (const ev of sorted) {
      if (ev.run_id !== this.runId || !Number.isInteger(ev.seq) || ev.seq < 1) continue;
      if (ev.seq <= this.view.lastSeq || this.view.terminal) {
        r.duplicates++;
        continue;
      }
      if (journal || ev.seq === this.view.lastSeq + 1) {
        this.apply(ev);
        r.applied++;
        r.applied += this.drain();
      } else {
        if (!this.held.has(ev.seq) && this.held.size < MAX_HELD) this.held.set(ev.seq, ev);
        else if (this.held.has(ev.seq)) r.duplicates++;
        r.gap = true;
      }
    }
    // Anything held at or below the cursor was filled by a page.
    for (const s of this.held.keys()) if (s <= this.view.lastSeq) this.held.delete(s);
    if (this.held.size > 0) r.gap = true;
    return r;
  }

  private apply(ev: KeptEvent): void {
    applyEvent(this.view, ev);
    if (ev.through !== undefined) this.view.lastSeq = Math.max(this.view.lastSeq, ev.through);
    this.keep(ev);
  }

  /** Keeps an applied event, joining a text chunk onto the chunk run before it. */
  private keep(ev: KeptEvent): void {
    const last = this.events[this.events.length - 1];
    const text = JOINS.has(ev.type) ? chunkText(ev) : "";
    // Only non-empty chunks join: an empty first chunk opens no block, so
    // the block's key comes from the first chunk with text, as it did live.
    if (text !== "" && last && last.type === ev.type && lastSeqOf(last) === ev.seq - 1 && chunkText(last) !== "") {
      const joined: KeptEvent = this.joins.has(last) ? last : { ...last, payload: { text: chunkText(last) } };
      (joined.payload as { text: string }).text += text;
      joined.through = lastSeqOf(ev);
      this.joins.add(joined);
      this.events[this.events.length - 1] = joined;
      return;
    }
    this.events.push(ev);
  }

  private drain(): number {
    let n = 0;
    for (;;) {
      const next = this.held.get(this.view.lastSeq + 1);
      if (!next || this.view.terminal) return n;
      this.held.delete(next.seq);
      this.apply(next);
      n++;
    }
  }

  /**
   * A new feed whose window starts earlier: `older` (journal events before
   * this window) folded in front of everything this one holds.
   */
  withOlder(older: readonly RunEvent[], newBase: number): RunFeed {
    const f = new RunFeed(this.runId, this.view.sessionId, newBase);
    f.ingest(older.filter((e) => e.seq > newBase && e.seq <= this.base), true);
    f.ingest(this.events, true);
    f.ingest([...this.held.values()], false);
    return f;
  }
}
