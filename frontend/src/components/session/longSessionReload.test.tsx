import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport } from "../../transport/transport";
import { SESSION_TAIL } from "./sessionTail";
import { SessionView } from "./SessionView";

// A long session open while its runs come in: each new run is read without
// reading every earlier turn again (issue 23.20, sessionTail.ts).
function openSession(turns: number) {
  const messages: object[] = [];
  const addTurn = (i: number) => {
    messages.push({ id: `u${i}`, session_id: "ses_1", role: "user", content: `question ${i}` });
    messages.push({ id: `a${i}`, session_id: "ses_1", role: "assistant", content: `answer ${i}`, run_id: `run_${i}`, run: { id: `run_${i}`, session_id: "ses_1", status: "completed", last_seq: 3, terminal: true } });
  };
  for (let i = 1; i <= turns; i++) addTurn(i);
  const reads: string[] = [];
  const api = new ApiClient(async (_m, p) => {
    const s = /^\/api\/sessions\/ses_1(?:\?tail=(\d+))?$/.exec(p);
    if (s) {
      reads.push(p);
      const tail = Number(s[1] ?? 0);
      const body = { id: "ses_1", project_id: "p1", title: "Long", agent: "claude", messages: tail ? messages.slice(-tail) : messages };
      return { status: 200, body: JSON.stringify(body) };
    }
    const m = /\/api\/runs\/(run_\d+)\/events\?after=(\d+)/.exec(p);
    if (m) {
      const events = evts(m[1]!, [["run.started", { agent: "claude" }], ["token.delta", { text: `answer ${m[1]!.slice(4)}` }], ["done", { status: "completed" }]]).filter((e) => e.seq > Number(m[2]));
      return { status: 200, body: JSON.stringify({ events }) };
    }
    return { status: 404, body: "{}" };
  });
  let bus: BusHandlers | undefined;
  const t: Transport = { kind: "http", api, watchRun: () => () => {}, watchBus: (h) => ((bus = h), () => {}) };
  const runs = new RunStore(t, { schedule: (cb) => cb() });
  runs.bus.start();
  const newRun = (i: number) => {
    addTurn(i);
    bus!.onMessage({ seq: i, type: "run.changed", run: { run_id: `run_${i}`, session_id: "ses_1", agent: "claude", status: "running", last_seq: 1, created_at: "2026-01-01T00:00:00Z" } });
  };
  return { runs, t, reads, newRun };
}

describe("a long session open while runs come in", () => {
  it("reads the session's tail for a new run, not the whole session again", async () => {
    const turns = SESSION_TAIL; // more messages than the tail holds
    const { runs, t, reads, newRun } = openSession(turns);
    render(<SessionView t={t} runs={runs} session={{ id: "ses_1", project_id: "p1", title: "Long", agent: "claude" }} inspectorOpen onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} />);
    const pick = await screen.findByLabelText("Run to inspect");
    await waitFor(() => expect(pick.querySelectorAll("option").length).toBe(turns));
    for (let i = turns + 1; i <= turns + 3; i++) {
      newRun(i);
      // Every turn is still there, the new one with them.
      await waitFor(() => expect(pick.querySelectorAll("option").length).toBe(i));
    }
    expect(reads.filter((p) => !p.includes("?tail=")).length).toBe(1);
    expect(reads.some((p) => p.endsWith(`?tail=${SESSION_TAIL}`))).toBe(true);
  });
});
