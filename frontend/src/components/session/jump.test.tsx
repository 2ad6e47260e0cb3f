import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jumpTarget, type JumpTarget } from "../../store/jump";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { Transport, WatchHandlers } from "../../transport/transport";
import type { RunEvent } from "../../transport/types";
import { SessionView } from "./SessionView";
import { HIGHLIGHT_MS, Transcript, type Item } from "./Transcript";
import { NOT_FOUND_NOTE } from "./useJump";

const session = { id: "ses_1", project_id: "p1", title: "Long one", agent: "claude" };
const R = "run_1";

/** A long live run: a tool call that printed "needle" at seq 500-502, filler around it. */
function longRun(): RunEvent[] {
  const filler = (n: number): [string, unknown][] => Array.from({ length: n }, () => ["token.delta", { text: "." }]);
  return evts(R, [
    ["run.started", { agent: "claude" }],
    ...filler(498),
    ["tool.started", { tool_call_id: "t1", name: "bash", title: "grep needle", input: { command: "grep needle" } }],
    ["tool.updated", { tool_call_id: "t1", output: "found the needle\n" }],
    ["tool.done", { tool_call_id: "t1", status: "completed" }],
    ...filler(498),
  ]);
}

function setup(journal: RunEvent[], target?: JumpTarget, compacted?: (seq: number) => boolean) {
  const pages: number[] = [];
  const watchers: WatchHandlers[] = [];
  const api = new ApiClient(async (_m, p) => {
    if (p === "/api/sessions/ses_1") {
      return {
        status: 200,
        body: JSON.stringify({
          ...session,
          messages: [
            { id: "u1", session_id: "ses_1", role: "user", content: "find the needle" },
            { id: "a1", session_id: "ses_1", role: "assistant", content: "", run_id: R, run: { id: R, session_id: "ses_1", status: "running", last_seq: journal.length, terminal: false } },
          ],
        }),
      };
    }
    const m = /\/api\/runs\/run_1\/events\?after=(\d+)(?:&limit=(\d+))?/.exec(p);
    if (m) {
      const after = Number(m[1]);
      pages.push(after);
      const evs = journal.filter((e) => e.seq > after && !compacted?.(e.seq)).slice(0, Number(m[2] ?? 1e9));
      return { status: 200, body: JSON.stringify({ events: evs }) };
    }
    return { status: 404, body: "{}" };
  });
  const t: Transport = { kind: "http", api, watchRun: (_id, _after, h) => (watchers.push(h), () => {}) };
  const runs = new RunStore(t, { tailWindow: 50, pageSize: 100, schedule: (cb) => cb() });
  const view = render(
    <SessionView t={t} runs={runs} session={session} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} target={target} />,
  );
  return { pages, watchers, runs, view };
}

const targetRow = () => document.querySelector<HTMLElement>(".row-target");

describe("search jump", () => {
  it("pages back to the event, highlights and focuses its block, and keeps following", async () => {
    const journal = longRun();
    const target = jumpTarget({ session_id: "ses_1", run_id: R, seq: 502, kind: "tool", snippet: "found the «needle»" });
    const { pages, watchers, runs } = setup(journal, target);
    await waitFor(() => expect(targetRow()).not.toBeNull());
    const row = targetRow()!;
    expect(row.textContent).toContain("grep needle");
    expect(row.dataset.key).toBe(runs.view(R)!.blocks.find((b) => b.kind === "tool")!.key);
    await waitFor(() => expect(document.activeElement).toBe(row));
    expect(screen.getByText("Showing the search match.")).toBeTruthy();
    // Read from a little before the target, never from the start.
    expect(Math.min(...pages)).toBeGreaterThan(0);
    expect(runs.view(R)!.firstSeq).toBeLessThan(500);
    // The run still streams after the jump.
    await waitFor(() => expect(watchers).toHaveLength(1));
    act(() => watchers[0]!.onEvents(evts(R, [["token.delta", { text: "!" }]], journal.length + 1)));
    expect(runs.view(R)!.lastSeq).toBe(journal.length + 1);
  });

  it("lands on a user message", async () => {
    const target = jumpTarget({ session_id: "ses_1", message_id: "u1", kind: "user", snippet: "find the «needle»" });
    setup(longRun().slice(0, 10), target);
    await waitFor(() => expect(targetRow()?.textContent).toBe("find the needle"));
  });

  it("opens at the tail with a quiet note when the target was compacted away", async () => {
    const target = jumpTarget({ session_id: "ses_1", run_id: R, seq: 502, kind: "tool", snippet: "«needle»" });
    setup(longRun(), target, (seq) => seq >= 400 && seq < 600);
    const note = await screen.findByText(NOT_FOUND_NOTE);
    expect(note.closest("[role=status]")).not.toBeNull();
    expect(targetRow()).toBeNull();
  });

  it("says so when the run is not in the session any more", async () => {
    const target = jumpTarget({ session_id: "ses_1", run_id: "run_gone", seq: 3, kind: "tool", snippet: "«x»" });
    setup(longRun().slice(0, 10), target);
    expect(await screen.findByText(NOT_FOUND_NOTE)).toBeTruthy();
  });
});

describe("search jump into an older turn", () => {
  it("follows a run older than the attached tail so the hit shows as events", async () => {
    // 12 turns; only the last 10 runs are followed by default.
    const ids = Array.from({ length: 12 }, (_, i) => `run_${i}`);
    const journals = new Map(
      ids.map((id) => [
        id,
        evts(id, [
          ["run.started", {}],
          ["token.delta", { text: `answer ${id}` }],
          ["tool.started", { tool_call_id: "t", name: "bash", title: `tool of ${id}` }],
          ["tool.done", { tool_call_id: "t", status: "completed", output: "ok" }],
          ["done", { status: "completed" }],
        ]),
      ]),
    );
    const read: string[] = [];
    const api = new ApiClient(async (_m, p) => {
      if (p === "/api/sessions/ses_1") {
        const messages = ids.flatMap((id, i) => [
          { id: `u${i}`, session_id: "ses_1", role: "user", content: `ask ${i}` },
          { id: `a${i}`, session_id: "ses_1", role: "assistant", content: `answer ${id}`, run_id: id, run: { id, session_id: "ses_1", status: "completed", last_seq: 5, terminal: true } },
        ]);
        return { status: 200, body: JSON.stringify({ ...session, messages }) };
      }
      const m = /\/api\/runs\/(run_\d+)\/events\?after=(\d+)/.exec(p);
      if (m) {
        read.push(m[1]!);
        return { status: 200, body: JSON.stringify({ events: journals.get(m[1]!)!.filter((e) => e.seq > Number(m[2])) }) };
      }
      return { status: 404, body: "{}" };
    });
    const t: Transport = { kind: "http", api, watchRun: () => () => {} };
    const runs = new RunStore(t, { schedule: (cb) => cb() });
    const target = jumpTarget({ session_id: "ses_1", run_id: "run_0", seq: 4, kind: "tool", snippet: "«tool»" });
    render(<SessionView t={t} runs={runs} session={session} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} target={target} />);
    await waitFor(() => expect(targetRow()?.textContent).toContain("tool of run_0"));
    expect(read).toContain("run_0");
    // Older turns shown around the hit load their events too (on demand
    // when on screen; see olderTurns.test.tsx).
  });
});

describe("Transcript focus", () => {
  afterEach(() => vi.useRealTimers());
  const items: Item[] = Array.from({ length: 5 }, (_, i) => ({ key: `m:${i}`, kind: "user", text: `message ${i}` }));
  const noop = { approve: async () => undefined, clarify: async () => undefined };

  it("marks a pane focused by a click (no keyboard ring) until a key is used", () => {
    render(<Transcript items={items} actions={noop} onOlder={() => {}} />);
    const pane = screen.getByLabelText("Transcript");
    fireEvent.pointerDown(pane);
    pane.focus();
    expect(pane.dataset.pointer).toBe("1");
    fireEvent.keyDown(pane, { key: "ArrowDown" });
    expect(pane.dataset.pointer).toBeUndefined();
    fireEvent.pointerDown(pane);
    fireEvent.blur(pane);
    expect(pane.dataset.pointer).toBeUndefined();
  });

  it("highlights the row only briefly and waits for it to arrive", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { rerender } = render(<Transcript items={items.slice(1)} actions={noop} onOlder={() => {}} focus={{ key: "m:0", nonce: 1 }} />);
    await act(async () => {}); // virtua measures its viewport in a microtask
    expect(document.querySelector("[data-key='m:1']")).not.toBeNull();
    expect(targetRow()).toBeNull(); // not loaded yet
    rerender(<Transcript items={items} actions={noop} onOlder={() => {}} focus={{ key: "m:0", nonce: 1 }} />);
    await act(async () => {});
    expect(targetRow()?.dataset.key).toBe("m:0");
    act(() => vi.advanceTimersByTime(HIGHLIGHT_MS + 1));
    expect(targetRow()).toBeNull();
    // Still the focus target for assistive tech, without the pulse.
    expect(document.querySelector("[data-key='m:0']")?.getAttribute("tabindex")).toBe("-1");
  });
});
