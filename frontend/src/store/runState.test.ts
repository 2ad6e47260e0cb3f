import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RunFeed } from "./feed";
import { nextState, type RunStateFields } from "./runState";

interface GoState {
  status: string;
  pending_approval_id?: string;
  pending_clarify_id?: string;
  resumes_at?: string;
  park_attempts?: number;
}
interface Row {
  name: string;
  from: GoState;
  type: string;
  payload: unknown;
  to: GoState;
}

// The Go side's table: `go test ./backend/run -run TestTransitionsFile -update` writes it.
const rows: Row[] = JSON.parse(
  readFileSync(resolve(__dirname, "../../../backend/run/testdata/transitions.json"), "utf8"),
);

const toTS = (g: GoState): RunStateFields => ({
  status: g.status as RunStateFields["status"],
  pendingApprovalId: g.pending_approval_id || undefined,
  pendingClarifyId: g.pending_clarify_id || undefined,
  resumesAt: g.resumes_at || undefined,
  parkAttempts: g.park_attempts || undefined,
});

describe("run state machine, the Go table", () => {
  it("has rows", () => expect(rows.length).toBeGreaterThan(20));
  for (const r of rows) {
    it(r.name, () => {
      const got = nextState(toTS(r.from), r.type, r.payload);
      expect({ ...got }).toEqual({ ...toTS(r.to) });
    });
  }
});

// The fold reaches the same status as the table for every row that can be
// played as a run's events (a run whose from-state events would produce).
describe("fold follows the table", () => {
  const prefix = (from: GoState): { type: string; payload: unknown }[] => {
    const evs: { type: string; payload: unknown }[] = [];
    if (from.status === "queued" || from.status === "") return evs;
    evs.push({ type: "run.started", payload: { agent: "demo" } });
    if (from.pending_approval_id) evs.push({ type: "approval.requested", payload: { approval_id: from.pending_approval_id, options: [] } });
    if (from.pending_clarify_id) evs.push({ type: "clarify.requested", payload: { clarify_id: from.pending_clarify_id, question: "?" } });
    if (from.status === "parked")
      evs.push({ type: "status", payload: { status: "parked", resumes_at: from.resumes_at, attempt: from.park_attempts } });
    if (["cancelling", "paused"].includes(from.status)) evs.push({ type: "status", payload: { status: from.status } });
    if (["completed", "failed", "cancelled", "interrupted"].includes(from.status)) evs.push({ type: "done", payload: { status: from.status } });
    return evs;
  };
  for (const r of rows) {
    it(r.name, () => {
      const evs = [...prefix(r.from), { type: r.type, payload: r.payload }];
      const f = new RunFeed("run_t");
      f.ingest(
        evs.map((e, i) => ({
          event_id: `run_t:${i + 1}`, seq: i + 1, run_id: "run_t", session_id: "s", type: e.type,
          created_at: 1 + i, terminal: e.type === "done", payload: e.payload,
        })) as never,
        true,
      );
      expect(f.view.status).toBe(r.to.status);
    });
  }
});
