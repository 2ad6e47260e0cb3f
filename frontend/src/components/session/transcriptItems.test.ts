import { describe, expect, it } from "vitest";
import { applyEvent } from "../../store/fold";
import { newRunView, type RunView } from "../../store/model";
import { evts } from "../../store/testEvents";
import type { Message } from "../../transport/types";
import type { Item } from "./Transcript";
import { transcriptItems, type FoldedRuns } from "./transcriptItems";

function fold(runId: string, specs: [string, unknown?][]): RunView {
  const v = newRunView(runId, "ses_1");
  for (const e of evts(runId, specs)) applyEvent(v, e);
  return v;
}

function store(views: RunView[], older: string[] = []): FoldedRuns {
  const m = new Map(views.map((v) => [v.runId, v]));
  return { view: (id) => m.get(id), hasOlder: (id) => older.includes(id) };
}

const user = (id: string, content: string, run_id?: string): Message => ({ id, session_id: "ses_1", role: "user", content, run_id });
const answer = (id: string, content: string, run_id?: string, extra: Partial<Message> = {}): Message => ({ id, session_id: "ses_1", role: "assistant", content, run_id, ...extra });

/** Rows as [kind, what they show]. */
function rows(items: Item[]): unknown[] {
  return items.map((it) => {
    switch (it.kind) {
      case "user":
        return it.queuedRun ? ["user", it.text, "queued"] : ["user", it.text];
      case "static":
        return ["static", it.text];
      case "older":
        return ["older", it.runId];
      case "wait":
        return ["wait", it.text];
      case "block": {
        const b = it.block;
        const what = b.kind === "text" ? b.text : b.kind === "done" ? `${b.status}${b.note ? `: ${b.note}` : ""}${b.errorShown ? " (error shown)" : ""}` : b.kind === "tool" ? b.toolCallId : "";
        return [b.kind, what, it.live ? "live" : "ended"];
      }
    }
  });
}

const streaming = fold("run_a", [["run.started", { agent: "claude" }], ["token.delta", { text: "Hel" }], ["token.delta", { text: "lo" }]]);
const finished = fold("run_b", [["run.started"], ["token.delta", { text: "Done." }], ["done", { status: "completed" }]]);
const denied = fold("run_c", [
  ["run.started"],
  ["approval.requested", { approval_id: "ap1", title: "Run rm", options: [{ id: "no", label: "No", kind: "reject_once" }] }],
  ["approval.resolved", { approval_id: "ap1", choice: "no" }],
  ["done", { status: "completed" }],
]);
const failed = fold("run_d", [["run.started"], ["error", { message: "boom" }], ["done", { status: "failed", error: "boom" }]]);
const waiting = fold("run_w", [["run.started"], ["approval.requested", { approval_id: "ap1", title: "rm -rf ~", options: [{ id: "ok", label: "Allow once", kind: "allow_once" }] }]]);
const withUser = fold("run_e", [["run.started"], ["message.user", { message_id: "u1", text: "hi" }], ["token.delta", { text: "yo" }]]);

const table: { name: string; in: Omit<Parameters<typeof transcriptItems>[0], "cache">; want: unknown[] }[] = [
  { name: "no messages", in: { messages: [], runs: store([]), queued: new Set() }, want: [] },
  {
    name: "a turn without a folded run shows its saved text",
    in: { messages: [user("m1", "hi", "run_x"), answer("m2", "saved answer", "run_x")], runs: store([]), queued: new Set() },
    want: [["user", "hi"], ["static", "saved answer"]],
  },
  {
    name: "a saved turn that failed says so",
    in: { messages: [answer("m2", "", "run_x", { run: { id: "run_x", session_id: "s", status: "failed", last_seq: 0, terminal: true, started_at: "2026-01-01T00:00:00Z" }, error: "no key" })], runs: store([]), queued: new Set() },
    want: [["done", "failed", "ended"]],
  },
  {
    name: "a cancelled turn keeps its text and says it ended",
    in: { messages: [answer("m2", "part", "run_x", { run: { id: "run_x", session_id: "s", status: "cancelled", last_seq: 0, terminal: true, started_at: "2026-01-01T00:00:00Z" } })], runs: store([]), queued: new Set() },
    want: [["static", "part"], ["done", "cancelled", "ended"]],
  },
  {
    name: "a streaming run shows its blocks live and what it waits for",
    in: { messages: [user("m1", "hi", "run_a"), answer("m2", "", "run_a")], runs: store([streaming]), queued: new Set(), wait: { runId: "run_a", text: "claude is working…" } },
    want: [["user", "hi"], ["text", "Hello", "live"], ["wait", "claude is working…"]],
  },
  {
    name: "a run with no events yet but saved text shows the text",
    in: { messages: [answer("m2", "saved", "run_n")], runs: store([newRunView("run_n")]), queued: new Set() },
    want: [["static", "saved"]],
  },
  {
    name: "a finished run's blocks are not live",
    in: { messages: [answer("m2", "Done.", "run_b")], runs: store([finished]), queued: new Set() },
    want: [["text", "Done.", "ended"], ["done", "completed", "ended"]],
  },
  {
    name: "the footer of a completed run says a denied request",
    in: { messages: [answer("m2", "", "run_c")], runs: store([denied]), queued: new Set() },
    want: [["approval", "", "ended"], ["done", "completed: the request was denied", "ended"]],
  },
  {
    name: "the footer does not repeat an error that has its card",
    in: { messages: [answer("m2", "", "run_d")], runs: store([failed]), queued: new Set() },
    want: [["error", "", "ended"], ["done", "failed (error shown)", "ended"]],
  },
  {
    name: "the run's echo of the user message is not shown twice",
    in: { messages: [user("m1", "hi", "run_e"), answer("m2", "", "run_e")], runs: store([withUser]), queued: new Set() },
    want: [["user", "hi"], ["text", "yo", "live"]],
  },
  {
    name: "a run with older events offers them first",
    in: { messages: [answer("m2", "", "run_b")], runs: store([finished], ["run_b"]), queued: new Set() },
    want: [["older", "run_b"], ["text", "Done.", "ended"], ["done", "completed", "ended"]],
  },
  {
    name: "an imported session's run waiting on an approval is not live",
    in: { messages: [answer("m2", "", "run_w")], runs: store([waiting]), queued: new Set(), readOnly: true },
    want: [["approval", "", "ended"]],
  },
  {
    name: "a run the journal holds as ended is not live, even without its done",
    in: { messages: [answer("m2", "", "run_w", { run: { id: "run_w", session_id: "ses_1", status: "interrupted", last_seq: 2, terminal: true } as never })], runs: store([waiting]), queued: new Set() },
    want: [["approval", "", "ended"]],
  },
  {
    name: "the same run in a session of this machine is live",
    in: { messages: [answer("m2", "", "run_w")], runs: store([waiting]), queued: new Set() },
    want: [["approval", "", "live"]],
  },
  {
    name: "a queued follow-up's message carries its run",
    in: { messages: [user("m1", "next", "run_q"), answer("m2", "", "run_q")], runs: store([]), queued: new Set(["run_q"]) },
    want: [["user", "next", "queued"]],
  },
  {
    name: "a follow-up cancelled or edited before it started leaves no turn (saved run says so)",
    in: {
      messages: [user("m1", "hi", "run_b"), answer("m2", "Done.", "run_b"), user("m3", "oops", "run_w"), answer("m4", "", "run_w", { run: { id: "run_w", session_id: "ses_1", status: "cancelled", last_seq: 1, terminal: true } })],
      runs: store([finished]),
      queued: new Set(),
    },
    want: [["user", "hi"], ["text", "Done.", "ended"], ["done", "completed", "ended"]],
  },
  {
    name: "a follow-up cancelled before it started leaves no turn (its folded run says so before the reload)",
    in: {
      messages: [user("m3", "oops", "run_w"), answer("m4", "", "run_w", { run: { id: "run_w", session_id: "ses_1", status: "queued", last_seq: 0, terminal: false } })],
      runs: store([fold("run_w", [["done", { status: "cancelled" }]])]),
      queued: new Set(),
    },
    want: [],
  },
  {
    name: "a run cancelled after it started keeps its turn",
    in: {
      messages: [user("m3", "go", "run_x"), answer("m4", "part", "run_x", { run: { id: "run_x", session_id: "ses_1", status: "cancelled", last_seq: 3, terminal: true, started_at: "2026-01-01T00:00:00Z" } })],
      runs: store([]),
      queued: new Set(),
    },
    want: [["user", "go"], ["static", "part"], ["done", "cancelled", "ended"]],
  },
  {
    name: "the wait row sits under its run, above the follow-ups queued behind it",
    in: {
      messages: [user("m1", "hi", "run_a"), answer("m2", "", "run_a"), user("m3", "next", "run_q"), answer("m4", "", "run_q")],
      runs: store([streaming]),
      queued: new Set(["run_q"]),
      wait: { runId: "run_a", text: "claude is working…" },
    },
    want: [["user", "hi"], ["text", "Hello", "live"], ["wait", "claude is working…"], ["user", "next", "queued"]],
  },
];

describe("transcriptItems", () => {
  for (const tc of table) {
    it(tc.name, () => {
      expect(rows(transcriptItems({ ...tc.in, cache: new WeakMap() }))).toEqual(tc.want);
    });
  }

  it("keeps the item object of a block that did not change", () => {
    const v = fold("run_s", [["run.started"], ["tool.started", { tool_call_id: "t1", name: "Read" }], ["token.delta", { text: "a" }]]);
    const cache = new WeakMap<object, Item>();
    const input = { messages: [answer("m2", "", "run_s")], runs: store([v]), queued: new Set<string>(), cache };
    const first = transcriptItems(input);
    applyEvent(v, evts("run_s", [["token.delta", { text: "b" }]], 4)[0]!);
    const second = transcriptItems(input);
    expect(second[0]).toBe(first[0]); // the tool card
    expect(second[1]).not.toBe(first[1]); // the streaming text
    expect(rows(second)[1]).toEqual(["text", "ab", "live"]);
  });

  it("marks rows ended when their run ends", () => {
    const v = fold("run_t", [["run.started"], ["token.delta", { text: "a" }], ["tool.started", { tool_call_id: "t1", name: "Read" }]]);
    const cache = new WeakMap<object, Item>();
    const input = { messages: [answer("m2", "", "run_t")], runs: store([v]), queued: new Set<string>(), cache };
    expect(rows(transcriptItems(input))[0]).toEqual(["text", "a", "live"]);
    applyEvent(v, evts("run_t", [["done", { status: "completed" }]], 4)[0]!);
    expect(rows(transcriptItems(input))).toEqual([["text", "a", "ended"], ["tool", "t1", "ended"], ["done", "completed", "ended"]]);
  });
});
