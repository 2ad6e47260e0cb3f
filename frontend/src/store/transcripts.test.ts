// Folds the Go side's recorded agent transcripts, mapped to normalized
// events by the adapters' own mappers (backend/adapter/*/testdata/
// *.events.jsonl, written by each adapter's transcript test with -update),
// and checks what must hold for any real run (docs/ARCHITECTURE.md §Events).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../transport/types";
import { applyEvent } from "./fold";
import { newRunView, type RunView } from "./model";

const adapters = resolve(__dirname, "../../../backend/adapter");

function transcripts(): { name: string; events: RunEvent[] }[] {
  const out: { name: string; events: RunEvent[] }[] = [];
  for (const a of readdirSync(adapters)) {
    let files: string[];
    try {
      files = readdirSync(join(adapters, a, "testdata")).filter((f) => f.endsWith(".events.jsonl"));
    } catch {
      continue;
    }
    for (const f of files.sort()) {
      const events: RunEvent[] = [];
      for (const line of readFileSync(join(adapters, a, "testdata", f), "utf8").split("\n")) {
        if (!line.trim()) continue;
        const row = JSON.parse(line) as { type?: string; payload?: unknown };
        // The ACP files open with a summary line and carry "(turn usage)"
        // notes; neither is an event.
        if (!row.type || row.type.startsWith("(")) continue;
        const seq = events.length + 2;
        events.push({ event_id: `e${seq}`, seq, run_id: "r", session_id: "s", type: row.type, created_at: seq, terminal: false, payload: row.payload });
      }
      out.push({ name: `${a}/${f}`, events });
    }
  }
  return out;
}

const ev = (seq: number, type: string, payload: unknown): RunEvent => ({
  event_id: `e${seq}`, seq, run_id: "r", session_id: "s", type, created_at: seq, terminal: type === "done", payload,
});

const concat = (events: RunEvent[], type: string): string =>
  events.filter((e) => e.type === type).map((e) => (e.payload as { text?: string }).text ?? "").join("");

const shown = (v: RunView, kind: "text" | "reasoning"): string =>
  v.blocks.map((b) => (b.kind === kind ? b.text : "")).join("");

const all = transcripts();

describe("recorded agent transcripts fold", () => {
  it("finds the adapters' transcripts", () => {
    expect(new Set(all.map((t) => t.name.split("/")[0]))).toEqual(new Set(["acp", "claude", "codex"]));
    expect(all.length).toBeGreaterThan(25);
  });
  for (const t of all) {
    it(t.name, () => {
      const v = newRunView("r", "s");
      applyEvent(v, ev(1, "run.started", { agent: "recorded" }));
      for (const e of t.events) applyEvent(v, e);

      if (t.events.some((e) => e.type === "token.delta" || e.type === "tool.started" || e.type === "message.user")) {
        expect(v.blocks.length).toBeGreaterThan(0);
      }
      // The text shown is exactly what the agent streamed, in order.
      expect(shown(v, "text")).toBe(concat(t.events, "token.delta"));
      if (!t.events.some((e) => e.type === "reasoning.done")) {
        expect(shown(v, "reasoning")).toBe(concat(t.events, "reasoning.delta"));
      }
      for (const id of new Set(t.events.filter((e) => e.type.startsWith("tool.")).map((e) => (e.payload as { tool_call_id?: string }).tool_call_id))) {
        if (id) expect(v.blocks.some((b) => b.kind === "tool" && b.toolCallId === id)).toBe(true);
      }

      // The conn sends the run's one done after the mapper's events.
      const done = t.events.length + 2;
      applyEvent(v, ev(done, "done", { status: "completed" }));
      expect(v.terminal).toBe(true);
      expect(v.status).toBe("completed");
      expect(v.blocks.at(-1)?.kind).toBe("done");
      for (const b of v.blocks) {
        if (b.kind === "tool") expect(["running", "pending", "in_progress"]).not.toContain(b.status);
        if (b.kind === "text" || b.kind === "reasoning") expect(b.done).toBe(true);
      }
    });
  }
});
