// RunStore over the desktop window's transport (docs/ARCHITECTURE.md §Life
// of one event): the transport only rings, RunStore is the one pager.
import { describe, expect, it } from "vitest";
import { fakeWindow } from "../transport/testWindow";
import { DOORBELL, WailsTransport } from "../transport/wails";
import { RunStore } from "./runStore";
import { evts } from "./testEvents";

const R = "run_w";
const Q = "run_q";
const chunks = (run: string, n: number, from = 1) =>
  evts(run, Array.from({ length: n }, (_, i) => ["token.delta", { text: String.fromCharCode(97 + ((from - 1 + i) % 26)) }] as [string, unknown]), from);
const done = (run: string, seq: number) => evts(run, [["done", { status: "completed" }]], seq);
const text = (s: RunStore, run: string) =>
  s.view(run)!.blocks.filter((b) => b.kind === "text").map((b) => (b as { text: string }).text).join("|");
/** Lets the pending page reads settle (they resolve as microtasks and timers). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

function store(journal = chunks(R, 2)) {
  const fw = fakeWindow(journal);
  const s = new RunStore(new WailsTransport({ win: fw.win }), { pageSize: 500, schedule: (cb) => cb() });
  return { fw, s };
}

describe("RunStore over doorbells", () => {
  it("reads once on attach, then a page on each doorbell until done", async () => {
    const { fw, s } = store();
    await s.attach(R);
    expect(text(s, R)).toBe("ab");
    // One read on attach: the transport does not catch up a second time.
    expect(fw.pages(R)).toEqual([0]);

    fw.journal.push(...chunks(R, 2, 3));
    fw.emit(DOORBELL, { run_id: R, seq: 4 });
    fw.emit(DOORBELL, { run_id: "other", seq: 9 });
    await settle();
    expect(text(s, R)).toBe("abcd");
    expect(fw.pages(R)).toEqual([0, 2]);

    // A doorbell for something already held costs no request.
    fw.emit(DOORBELL, { run_id: R, seq: 3 });
    await settle();
    expect(fw.pages(R)).toEqual([0, 2]);

    fw.journal.push(...done(R, 5));
    fw.emit(DOORBELL, { run_id: R, seq: 5 });
    await settle();
    expect(s.view(R)!.terminal).toBe(true);
    // Done: nothing listens any more; further doorbells read nothing.
    fw.emit(DOORBELL, { run_id: R, seq: 6 });
    await settle();
    expect(fw.pages(R)).toEqual([0, 2, 4]);
    expect(fw.listeners.get(DOORBELL)?.size ?? 0).toBe(1); // the transport's one listener, with no run behind it
  });

  it("pages through a backlog larger than one page", async () => {
    const { fw, s } = store(chunks(R, 1234));
    await s.attach(R);
    expect(s.view(R)!.lastSeq).toBe(1234);
    expect(fw.pages(R)).toEqual([0, 500, 1000]);
  });

  it("a doorbell burst reads one page per run, and each event is merged once, in seq order", async () => {
    const { fw, s } = store([...chunks(R, 2), ...chunks(Q, 2)]);
    await Promise.all([s.attach(R), s.attach(Q)]);
    expect(fw.pages(R)).toEqual([0]);
    expect(fw.pages(Q)).toEqual([0]);

    // Twenty committed events per run, announced by a burst of doorbells
    // that repeat, come out of order and interleave the two runs.
    fw.journal.push(...chunks(R, 20, 3), ...chunks(Q, 20, 3));
    for (let seq = 22; seq >= 3; seq--) {
      fw.emit(DOORBELL, { run_id: R, seq });
      fw.emit(DOORBELL, [{ run_id: Q, seq }, { run_id: R, seq: 22 - seq + 3 }]);
    }
    await settle();
    expect(fw.pages(R)).toEqual([0, 2]);
    expect(fw.pages(Q)).toEqual([0, 2]);
    const want = chunks(R, 22).map((e) => (e.payload as { text: string }).text).join("");
    expect(text(s, R)).toBe(want);
    expect(text(s, Q)).toBe(want);
    expect(s.view(R)!.lastSeq).toBe(22);
    expect(s.view(Q)!.lastSeq).toBe(22);
  });

  it("doorbells while a read is under way cost one read after it, not one each, never two at once", async () => {
    const { fw, s } = store(chunks(R, 2));
    await s.attach(R);
    fw.journal.push(...chunks(R, 1, 3));
    fw.emit(DOORBELL, { run_id: R, seq: 3 }); // a read after 2 starts: it sees 3
    fw.journal.push(...chunks(R, 2, 4));
    fw.emit(DOORBELL, { run_id: R, seq: 5 }); // while it runs
    fw.emit(DOORBELL, { run_id: R, seq: 4 });
    expect(fw.pages(R)).toEqual([0, 2]); // no second read beside it
    await settle();
    // The read went on to the highest seq rung: one more page, after 3.
    expect(fw.pages(R)).toEqual([0, 2, 3]);
    expect(text(s, R)).toBe("abcde");
  });

  it("detach stops the doorbell", async () => {
    const { fw, s } = store(chunks(R, 1));
    await s.attach(R);
    s.detach(R);
    fw.journal.push(...chunks(R, 1, 2));
    fw.emit(DOORBELL, { run_id: R, seq: 2 });
    await settle();
    expect(fw.pages(R)).toEqual([0]);
  });
});
