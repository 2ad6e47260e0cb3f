import { describe, expect, it } from "vitest";
import type { RunEvent } from "../transport/types";
import { lastSeqOf, RunFeed } from "./feed";
import type { Block } from "./model";
import { evts } from "./testEvents";

const R = "run_7f3";

/** The rendered shape of a transcript, without keys and seqs. */
function shape(blocks: Block[]): unknown[] {
  return blocks.map((b) => {
    switch (b.kind) {
      case "text":
      case "reasoning":
        return [b.kind, b.text];
      case "tool":
        return ["tool", b.toolCallId, b.name, b.status, b.output, b.exitCode ?? null];
      case "approval":
        return ["approval", b.approvalId, b.options.map((o) => o.id), b.resolved?.choice ?? null];
      case "clarify":
        return ["clarify", b.clarifyId, b.answer ?? null];
      case "user":
        return ["user", b.text];
      case "plan":
        return ["plan", b.entries.map((e) => `${e.status}:${e.content}`)];
      case "error":
        return ["error", b.message];
      case "notice":
        return ["notice", b.message];
      case "done":
        return ["done", b.status];
    }
  });
}

/** Every seq the feed's kept events stand for, in order. */
function covered(f: RunFeed): number[] {
  return f.events.flatMap((e) => Array.from({ length: lastSeqOf(e) - e.seq + 1 }, (_, i) => e.seq + i));
}

function fold(events: RunEvent[]): RunFeed {
  const f = new RunFeed(R);
  f.ingest(events, true);
  return f;
}

const story = evts(R, [
  ["run.started", { agent: "demo", model: "m1" }],
  ["message.user", { message_id: "msg_u", text: "hi" }],
  ["reasoning.delta", { text: "think" }],
  ["reasoning.delta", { text: "ing" }],
  ["reasoning.done", { text: "thinking" }],
  ["token.delta", { text: "Hel" }],
  ["token.delta", { text: "lo" }],
  ["tool.started", { tool_call_id: "tc1", name: "bash", title: "ls", kind: "execute", input: { cmd: "ls" } }],
  ["tool.updated", { tool_call_id: "tc1", output: "a\n" }],
  ["tool.updated", { tool_call_id: "tc1", output: "b\n" }],
  ["tool.done", { tool_call_id: "tc1", status: "completed", output: "a\nb\n", exit_code: 0, duration_ms: 12 }],
  ["approval.requested", { approval_id: "ap1", title: "Run rm", command: "rm x", options: [{ id: "allow", label: "Allow", kind: "allow_once" }, { id: "deny", label: "Deny", kind: "reject_once" }] }],
  ["approval.resolved", { approval_id: "ap1", choice: "allow", by: "user" }],
  ["clarify.requested", { clarify_id: "c1", question: "Which?", choices: ["a", "b"] }],
  ["clarify.resolved", { clarify_id: "c1", answer: "a" }],
  ["plan.updated", { entries: [{ content: "step", status: "pending" }] }],
  ["plan.updated", { entries: [{ content: "step", status: "completed" }] }],
  ["token.delta", { text: " world" }],
  ["file.changed", { path: "x.go", action: "modified" }],
  ["usage.final", { input_tokens: 3, output_tokens: 4 }],
  ["done", { status: "completed", usage: { input_tokens: 3, output_tokens: 4 } }],
]);

describe("fold", () => {
  it("builds the transcript of a whole run", () => {
    const v = fold(story).view;
    expect(shape(v.blocks)).toEqual([
      ["user", "hi"],
      ["reasoning", "thinking"],
      ["text", "Hello"],
      ["tool", "tc1", "bash", "completed", "a\nb\n", 0],
      ["approval", "ap1", ["allow", "deny"], "allow"],
      ["clarify", "c1", "a"],
      ["plan", ["completed:step"]],
      ["text", " world"],
      ["done", "completed"],
    ]);
    expect(v.agent).toBe("demo");
    expect(v.model).toBe("m1");
    expect(v.status).toBe("completed");
    expect(v.terminal).toBe(true);
    expect(v.files).toEqual([{ path: "x.go", action: "modified", seq: 19 }]);
    expect(v.usage).toEqual({ input_tokens: 3, output_tokens: 4 });
    expect(v.lastSeq).toBe(21);
    expect(v.blocks.every((b) => b.kind !== "text" || b.done)).toBe(true);
  });

  it("does not count a rewrite with no change as a changed file (polish)", () => {
    const done = (files: [string, unknown][]) => {
      const v = fold(evts(R, [["run.started", { agent: "demo" }], ...files, ["done", { status: "completed" }]])).view;
      const b = v.blocks[v.blocks.length - 1]!;
      return b.kind === "done" ? b.changes : "no footer";
    };
    // Same content written again: no diff, no counts.
    expect(done([["file.changed", { path: "hello.txt", action: "modified", source: "agent" }]])).toBeUndefined();
    expect(done([
      ["file.changed", { path: "hello.txt", action: "modified" }],
      ["file.changed", { path: "a.go", action: "modified", diff: "@@ -1 +1 @@\n-a\n+b\n", added: 1, removed: 1 }],
      ["file.changed", { path: "new.txt", action: "created" }],
    ])).toEqual({ files: 2, added: 1, removed: 1 });
  });

  it("is the same whatever order and duplication live events arrive in, once gaps fill", () => {
    const want = shape(fold(story).view.blocks);
    const orders: RunEvent[][] = [
      [...story].reverse(),
      [...story, ...story],
      story.flatMap((e) => [e, e]),
      [...story.slice(10), ...story.slice(0, 10)],
    ];
    for (const order of orders) {
      const f = new RunFeed(R);
      for (const e of order) f.ingest([e], false);
      expect(shape(f.view.blocks)).toEqual(want);
      expect(f.heldCount).toBe(0);
    }
  });

  it("converges under random interleavings of live events, pages and duplicates", () => {
    // A seeded LCG: failures reproduce.
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const want = shape(fold(story).view.blocks);
    for (let round = 0; round < 200; round++) {
      const f = new RunFeed(R);
      const live = story.filter(() => rnd() < 0.8).flatMap((e) => (rnd() < 0.2 ? [e, e] : [e]));
      live.sort(() => rnd() - 0.5);
      for (const e of live) {
        const r = f.ingest([e], false);
        // A gap is answered by a journal page after the cursor, sometimes.
        if (r.gap && rnd() < 0.3) f.ingest(story.filter((x) => x.seq > f.lastSeq).slice(0, 1 + Math.floor(rnd() * 4)), true);
      }
      f.ingest(story.filter((x) => x.seq > f.lastSeq), true);
      expect(shape(f.view.blocks)).toEqual(want);
      expect(covered(f)).toEqual(story.map((e) => e.seq));
    }
  });

  it("holds live events past a gap until the gap is filled", () => {
    const f = new RunFeed(R);
    expect(f.ingest(story.slice(0, 5), false)).toMatchObject({ applied: 5, gap: false });
    const r = f.ingest(story.slice(7, 9), false);
    expect(r).toMatchObject({ applied: 0, gap: true });
    expect(f.lastSeq).toBe(5);
    expect(f.view.blocks.some((b) => b.kind === "tool")).toBe(false);
    // The page read after the cursor fills it; held events then apply.
    const r2 = f.ingest(story.slice(5, 7), true);
    expect(r2.applied).toBe(4);
    expect(r2.gap).toBe(false);
    expect(f.lastSeq).toBe(9);
  });

  it("counts duplicates and never applies an event twice", () => {
    const f = new RunFeed(R);
    f.ingest(story.slice(0, 7), true);
    const r = f.ingest(story.slice(0, 8), false);
    expect(r).toMatchObject({ applied: 1, duplicates: 7 });
    expect(shape(f.view.blocks).filter((b) => (b as unknown[])[0] === "text")).toEqual([["text", "Hello"]]);
  });

  it("ignores events of other runs and anything after done", () => {
    const f = fold(story);
    const after = evts(R, [["token.delta", { text: "late" }]], 22);
    const other = evts("run_other", [["token.delta", { text: "x" }]], 22);
    f.ingest([...after, ...other], false);
    expect(f.lastSeq).toBe(21);
    expect(JSON.stringify(f.view.blocks)).not.toContain("late");
  });

  it("ignores unknown types but keeps them in the timeline", () => {
    const f = fold(evts(R, [["token.delta", { text: "a" }], ["future.thing", { x: 1 }], ["token.delta", { text: "b" }]]));
    expect(shape(f.view.blocks)).toEqual([["text", "ab"]]);
    expect(f.view.timeline.map((e) => e.type)).toContain("future.thing");
    expect(f.lastSeq).toBe(3);
  });

  it("renders a compacted run like the deltas it replaced", () => {
    const live = fold(evts(R, [
      ["reasoning.delta", { text: "plan " }],
      ["reasoning.delta", { text: "it" }],
      ["token.delta", { text: "Hello " }],
      ["token.delta", { text: "world" }],
      ["tool.started", { tool_call_id: "t", name: "read" }],
      ["tool.done", { tool_call_id: "t", status: "completed" }],
      ["token.delta", { text: "Bye" }],
      ["done", { status: "completed" }],
    ]));
    // Journal after retention: holes where deltas were; the page is
    // authoritative so the holes are not waited for.
    const compacted: RunEvent[] = [
      ...evts(R, [["compacted", { from_seq: 1, to_seq: 4, reasoning: "plan it", text: "Hello world", events: 4 }]], 4),
      ...evts(R, [["tool.started", { tool_call_id: "t", name: "read" }], ["tool.done", { tool_call_id: "t", status: "completed" }]], 5),
      ...evts(R, [["compacted", { from_seq: 7, to_seq: 7, text: "Bye", events: 1 }]], 7),
      ...evts(R, [["done", { status: "completed" }]], 8),
    ];
    expect(shape(fold(compacted).view.blocks)).toEqual(shape(live.view.blocks));
  });

  it("opens a card for a tool update whose start is outside the window", () => {
    const f = new RunFeed(R, "", 100);
    f.ingest(evts(R, [["tool.updated", { tool_call_id: "old", output: "x" }], ["tool.done", { tool_call_id: "old", status: "failed", exit_code: 2 }]], 101), true);
    expect(shape(f.view.blocks)).toEqual([["tool", "old", "tool", "failed", "x", 2]]);
  });

  it("does not duplicate final tool output already streamed", () => {
    for (const [streamed, final, want] of [
      ["a\nb\n", "a\nb\n", "a\nb\n"],
      ["a\n", "a\nb\n", "a\nb\n"],
      ["", "all", "all"],
      ["x", "", "x"],
      ["live", "summary", "live\nsummary"],
    ] as const) {
      const f = fold(evts(R, [
        ["tool.started", { tool_call_id: "t", name: "bash" }],
        ...(streamed ? [["tool.updated", { tool_call_id: "t", output: streamed }] as [string, unknown]] : []),
        ["tool.done", { tool_call_id: "t", status: "completed", output: final }],
      ]));
      expect((f.view.blocks[0] as Block & { kind: "tool" }).output).toBe(want);
    }
  });

  it("tracks pending approval and clarify and the status they imply", () => {
    const f = new RunFeed(R);
    f.ingest(story.slice(0, 12), true);
    expect(f.view.pendingApprovalId).toBe("ap1");
    expect(f.view.status).toBe("awaiting_approval");
    f.ingest(story.slice(12, 14), true);
    expect(f.view.pendingApprovalId).toBeUndefined();
    expect(f.view.pendingClarifyId).toBe("c1");
    expect(f.view.status).toBe("awaiting_clarify");
  });

  it("keeps every waiting approval, oldest first, and reads needs-approval while any waits (21.10)", () => {
    const opts = [{ id: "y", label: "Allow", kind: "allow_once" }, { id: "n", label: "Deny", kind: "reject_once" }];
    const f = new RunFeed(R);
    const all = evts(R, [
      ["run.started", { agent: "demo" }],
      ["approval.requested", { approval_id: "a1", title: "Read README.md", options: opts }],
      ["approval.requested", { approval_id: "a2", title: "rm -rf ~/important", options: opts }],
      ["approval.resolved", { approval_id: "a2", choice: "n" }],
      ["approval.resolved", { approval_id: "a1", choice: "y" }],
    ]);
    const approvals = () =>
      f.view.blocks.flatMap((b) => (b.kind === "approval" ? [[b.approvalId, b.current, b.resolved?.choice ?? null]] : []));
    f.ingest(all.slice(0, 3), true);
    expect(f.view.status).toBe("awaiting_approval");
    expect(f.view.pendingApprovals).toEqual(["a1", "a2"]);
    expect(f.view.pendingApprovalId).toBe("a1"); // the oldest takes the answer keys
    expect(approvals()).toEqual([["a1", true, null], ["a2", false, null]]);
    f.ingest(all.slice(3, 4), true); // the newer one answered: the older still waits
    expect(f.view.status).toBe("awaiting_approval");
    expect(f.view.pendingApprovalId).toBe("a1");
    expect(approvals()).toEqual([["a1", true, null], ["a2", false, "n"]]);
    f.ingest(all.slice(4), true);
    expect(f.view.status).toBe("running");
    expect(f.view.pendingApprovalId).toBeUndefined();
    expect(f.view.pendingApprovals).toEqual([]);
  });

  it("moves the keys to the next approval when the oldest is answered", () => {
    const opts = [{ id: "y", label: "Allow", kind: "allow_once" }];
    const f = fold(evts(R, [
      ["run.started", { agent: "demo" }],
      ["approval.requested", { approval_id: "a1", title: "one", options: opts }],
      ["approval.requested", { approval_id: "a2", title: "two", options: opts }],
      ["approval.resolved", { approval_id: "a1", choice: "y" }],
    ]));
    expect(f.view.status).toBe("awaiting_approval");
    expect(f.view.pendingApprovalId).toBe("a2");
    expect(f.view.blocks.flatMap((b) => (b.kind === "approval" ? [b.current] : []))).toEqual([false, true]);
    const done = fold(evts(R, [
      ["run.started", { agent: "demo" }],
      ["approval.requested", { approval_id: "a1", title: "one", options: opts }],
      ["done", { status: "cancelled" }],
    ]));
    expect(done.view.pendingApprovals).toEqual([]);
    expect(done.view.status).toBe("cancelled");
  });

  it("merges tool input that arrives after the call started", () => {
    const f = fold(evts(R, [
      ["tool.started", { tool_call_id: "t", name: "bash" }],
      ["tool.updated", { tool_call_id: "t", status: "in_progress", input: { command: "ls" } }],
      ["tool.updated", { tool_call_id: "t", output: "a\n" }],
    ]));
    const b = f.view.blocks[0] as Block & { kind: "tool" };
    expect(b.input).toEqual({ command: "ls" });
    expect(b.output).toBe("a\n");
  });

  it("closes tool cards left running when the run is interrupted", () => {
    const f = fold(evts(R, [
      ["tool.started", { tool_call_id: "t", name: "bash" }],
      ["error", { message: "agent crashed" }],
      ["done", { status: "interrupted", error: "shim died" }],
    ]));
    expect(shape(f.view.blocks)).toEqual([["tool", "t", "bash", "interrupted", "", null], ["error", "agent crashed"], ["done", "interrupted"]]);
  });

  it("keeps notices in the transcript and ignores empty ones", () => {
    const f = fold(evts(R, [
      ["notice", { message: "The agent could not resume this conversation's earlier session" }],
      ["notice", {}],
      ["token.delta", { text: "hi" }],
      ["done", { status: "completed" }],
    ]));
    expect(shape(f.view.blocks)).toEqual([
      ["notice", "The agent could not resume this conversation's earlier session"],
      ["text", "hi"],
      ["done", "completed"],
    ]);
  });

  it("replaces only the blocks that changed", () => {
    const f = new RunFeed(R);
    f.ingest(story.slice(0, 6), true);
    const before = [...f.view.blocks];
    f.ingest(story.slice(6, 7), false);
    const changed = f.view.blocks.map((b, i) => b !== before[i]);
    expect(changed).toEqual([false, false, true]);
  });

  it("folds older events in front of a tail window", () => {
    const whole = fold(story);
    const tail = new RunFeed(R, "", 10);
    tail.ingest(story.slice(10), true);
    const merged = tail.withOlder(story.slice(0, 10), 0);
    expect(shape(merged.view.blocks)).toEqual(shape(whole.view.blocks));
    expect(merged.base).toBe(0);
  });

  it("keeps consecutive text chunks as one growing event, folding the same after a page in front", () => {
    const chunks = (type: string, n: number, c: string) => Array.from({ length: n }, () => [type, { text: c }] as [string, unknown]);
    const evs = evts(R, [
      ["run.started", { agent: "demo" }],
      ...chunks("reasoning.delta", 300, "r"),
      ["token.delta", { text: "" }], // opens nothing: not joined
      ...chunks("token.delta", 1000, "x"),
      ["usage.updated", { output_tokens: 3 }],
      ...chunks("token.delta", 500, "y"),
      ["done", { status: "completed" }],
    ]);
    const before = JSON.stringify(evs);
    const live = new RunFeed(R);
    for (const e of evs) live.ingest([e], false);
    // Six kept events, not 1,804: no object is retained per chunk.
    expect(live.events.map((e) => [e.type, e.seq, lastSeqOf(e)])).toEqual([
      ["run.started", 1, 1],
      ["reasoning.delta", 2, 301],
      ["token.delta", 302, 302],
      ["token.delta", 303, 1302],
      ["usage.updated", 1303, 1303],
      ["token.delta", 1304, 1803],
      ["done", 1804, 1804],
    ]);
    expect(covered(live)).toEqual(evs.map((e) => e.seq));
    expect(live.events[3]!.payload).toEqual({ text: "x".repeat(1000) });
    // The envelopes handed in (and the inspector's timeline) are not touched.
    expect(JSON.stringify(evs)).toBe(before);
    expect(live.view.timeline[live.view.timeline.length - 1]).toBe(evs[evs.length - 1]);
    // Refolded from the kept events (a page in front), the transcript is
    // the same, keys included.
    const tail = new RunFeed(R, "", 1);
    tail.ingest(evs.slice(1), true);
    const merged = tail.withOlder(evs.slice(0, 1), 0);
    const keyed = (f: RunFeed) => f.view.blocks.map((b) => [b.key, ...(shape([b])[0] as unknown[])]);
    expect(keyed(merged)).toEqual(keyed(live));
    expect(keyed(live)).toEqual([
      [`${R}:r2`, "reasoning", "r".repeat(300)],
      [`${R}:t303`, "text", "x".repeat(1000) + "y".repeat(500)],
      [`${R}:done`, "done", "completed"],
    ]);
    expect(merged.lastSeq).toBe(1804);
    // Growing a joined event of the refolded feed leaves the old feed's alone.
    const grow = new RunFeed(R, "", 0);
    grow.ingest(evs.slice(0, 1302), true);
    const again = grow.withOlder([], 0);
    again.ingest(evts(R, [["token.delta", { text: "z" }]], 1303), false);
    expect(again.events[3]!.payload).toEqual({ text: "x".repeat(1000) + "z" });
    expect(lastSeqOf(again.events[3]!)).toBe(1303);
    expect(grow.events[3]!.payload).toEqual({ text: "x".repeat(1000) });
    expect(lastSeqOf(grow.events[3]!)).toBe(1302);
  });

  it("moves the view's shape for what the session view shows, not for text streaming into the open block", () => {
    const f = new RunFeed(R);
    const steps: [string, unknown][] = [
      ["run.started", { agent: "demo" }],
      ["token.delta", { text: "a" }],
      ["token.delta", { text: "b" }],
      ["token.delta", { text: "" }],
      ["reasoning.delta", { text: "hm" }],
      ["reasoning.delta", { text: "m" }],
      ["token.delta", { text: "c" }],
      ["tool.started", { tool_call_id: "t1", name: "bash" }],
      ["tool.updated", { tool_call_id: "t1", output: "1\n" }],
      ["tool.updated", { tool_call_id: "t1", status: "failed" }],
      ["tool.updated", { tool_call_id: "t2", output: "x" }],
      ["usage.updated", { output_tokens: 1 }],
      ["done", { status: "completed" }],
    ];
    const moved = evts(R, steps).map((e) => {
      const s = f.view.shape;
      f.ingest([e], false);
      return [e.type, f.view.shape !== s];
    });
    expect(moved).toEqual([
      ["run.started", true],
      ["token.delta", true], // a new block
      ["token.delta", false], // grows it
      ["token.delta", false],
      ["reasoning.delta", true], // closes the text, opens thinking
      ["reasoning.delta", false],
      ["token.delta", true],
      ["tool.started", true],
      ["tool.updated", false], // output into its card
      ["tool.updated", true], // the card's status
      ["tool.updated", true], // a card it never saw start
      ["usage.updated", true],
      ["done", true],
    ]);
  });
});
