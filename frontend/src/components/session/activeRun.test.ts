import { describe, expect, it } from "vitest";
import { isTerminalStatus, type Message, type RunStatus } from "../../transport/types";
import { sessionRuns } from "./activeRun";

// The run carries the message's status (sent once); a run past queued has started.
const msg = (run: string, status?: string): Message => ({
  id: `m-${run}`, session_id: "s", role: "assistant", content: "", run_id: run,
  ...(status
    ? { run: { id: run, session_id: "s", status: status as RunStatus, last_seq: 0, terminal: isTerminalStatus(status), ...(status === "queued" ? {} : { started_at: "2026-01-01T00:00:00Z" }) } }
    : {}),
});

describe("sessionRuns", () => {
  it.each([
    { name: "no runs", ms: [], live: {}, active: undefined, queued: [] },
    { name: "one finished run", ms: [msg("a", "completed")], live: {}, active: "a", queued: [] },
    { name: "waiting run with a follow-up queued", ms: [msg("a", "awaiting_clarify"), msg("b", "queued")], live: {}, active: "a", queued: ["b"] },
    { name: "live status wins over the saved one", ms: [msg("a", "running"), msg("b", "queued"), msg("c", "queued")], live: { a: "completed", b: "running" }, active: "b", queued: ["c"] },
    { name: "only queued runs: the oldest", ms: [msg("a", "completed"), msg("b", "queued"), msg("c", "queued")], live: {}, active: "b", queued: ["b", "c"] },
    { name: "all ended: the latest", ms: [msg("a", "completed"), msg("b", "cancelled")], live: {}, active: "b", queued: [] },
    {
      name: "a follow-up cancelled before it started is not the latest: the header says Completed (23.11)",
      ms: [msg("a", "completed"), { ...msg("b"), run: { id: "b", session_id: "s", status: "cancelled", last_seq: 1, terminal: true } } as Message],
      live: {},
      active: "a",
      queued: [],
    },
  ])("$name", ({ ms, live, active, queued }) => {
    const r = sessionRuns(ms, (id) => (live as Record<string, string>)[id]);
    expect(r.activeId).toBe(active);
    expect(r.queued).toEqual(queued);
  });
});
