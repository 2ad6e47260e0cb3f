import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import { REVEAL_MAX } from "./revealed";
import { SessionView } from "./SessionView";

// A session with more turns than are followed up front: the older ones must
// get their tool cards and footers back once they are on screen.
function longSession(n: number) {
    const messages: object[] = [];
    for (let i = 1; i <= n; i++) {
      messages.push({ id: `u${i}`, session_id: "ses_1", role: "user", content: `question ${i}` });
      messages.push({ id: `a${i}`, session_id: "ses_1", role: "assistant", content: `answer ${i}`, run_id: `run_${i}`, run: { id: `run_${i}`, session_id: "ses_1", status: "completed", last_seq: 4, terminal: true } });
    }
    const requested = new Set<string>();
    const api = new ApiClient(async (_m, p) => {
      if (p === "/api/sessions/ses_1") return { status: 200, body: JSON.stringify({ id: "ses_1", project_id: "p1", title: "Long", agent: "claude", messages }) };
      const m = /\/api\/runs\/(run_\d+)\/events\?after=(\d+)/.exec(p);
      if (m) {
        const id = m[1]!;
        requested.add(id);
        const events = evts(id, [
          ["run.started", { agent: "claude" }],
          ["tool.started", { tool_call_id: "t1", name: "read_file", title: `Read ${id}.go` }],
          ["token.delta", { text: `answer ${id.slice(4)}` }],
          ["done", { status: "completed" }],
        ]).filter((e) => e.seq > Number(m[2]));
        return { status: 200, body: JSON.stringify({ events }) };
      }
      return { status: 404, body: "{}" };
    });
    const t: Transport = { kind: "http", api, watchRun: () => () => {} };
    const runs = new RunStore(t, { schedule: (cb) => cb() });
    return { runs, requested, t };
}

describe("older turns of a long session", () => {
  it("load their events when shown, so tool calls and footers stay visible", async () => {
    const { runs, requested, t } = longSession(14);
    render(<SessionView t={t} runs={runs} session={{ id: "ses_1", project_id: "p1", title: "Long", agent: "claude" }} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} />);
    // The first turn is older than the followed tail; shown, it loads its events.
    await waitFor(() => expect(requested.has("run_1")).toBe(true));
    expect(await screen.findByText("Read run_1.go")).toBeTruthy();
  });

  it("follows only the last older turns asked for, not every one read (23.20)", async () => {
    // Every older turn asked for in turn (the inspector's run picker; the
    // same reveal as scrolling a turn into view): once, each stayed followed.
    const { runs, requested, t } = longSession(60);
    render(<SessionView t={t} runs={runs} session={{ id: "ses_1", project_id: "p1", title: "Long", agent: "claude" }} inspectorOpen onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} />);
    const pick = await screen.findByLabelText("Run to inspect");
    for (let i = 1; i <= 50; i++) {
      fireEvent.change(pick, { target: { value: `run_${i}` } });
      await waitFor(() => expect(requested.has(`run_${i}`)).toBe(true));
    }
    // The session's last 10 turns and the last REVEAL_MAX asked for.
    await waitFor(() => expect(runs.attachedCount).toBeLessThanOrEqual(10 + REVEAL_MAX));
    expect(runs.attachedCount).toBeGreaterThan(10);
    // Fifty picks, each a render of the whole session view: ~3 s alone, over
    // 5 s on a loaded 2-core CI machine. The test checks what is followed,
    // not how fast, so it gets room.
  }, 30_000);
});
