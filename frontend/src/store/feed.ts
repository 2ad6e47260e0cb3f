// One run's ordered intake: deduplicates by (run_id, seq), holds live events
// that arrive past a gap until the gap is filled, and keeps the window of raw
// events so older pages can be folded in front of it.
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

export class RunFeed {
  view: RunView;
  /** Every applied envelope of the window, in seq order. */
  readonly events: RunEvent[] = [];
  private readonly held = new Map<number, RunEvent>();

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

  private apply(ev: RunEvent): void {
    applyEvent(this.view, ev);
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
