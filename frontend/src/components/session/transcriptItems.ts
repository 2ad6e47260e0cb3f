// The rows of a session's transcript, built from its saved messages and the
// folded runs (docs/ARCHITECTURE.md §Session view). Pure: the same
// messages, views and cache give the same rows.
import type { Block, DoneBlock, RunView } from "../../store/model";
import type { Message } from "../../transport/types";
import { isTerminalStatus } from "../../transport/types";
import type { Item } from "./Transcript";

/** What the rows read of the run store. */
export interface FoldedRuns {
  view(runId: string): RunView | undefined;
  hasOlder(runId: string): boolean;
}

export interface ItemsInput {
  messages: readonly Message[];
  runs: FoldedRuns;
  /** Runs queued behind the active one: their user message gets the queued bar. */
  queued: ReadonlySet<string>;
  /** The "what we wait for" row under the latest run, if any. */
  wait?: { runId: string; text: string };
  /**
   * One item object per block (or saved message) object, kept across calls
   * so unchanged rows keep their identity and only the streaming row
   * re-renders.
   */
  cache: WeakMap<object, Item>;
  /** An imported session: no block is live, whatever its events say. */
  readOnly?: boolean;
}

/**
 * A follow-up cancelled, or taken back to the composer by Edit, before it
 * started: nothing of it reached the agent, so it leaves no turn — neither
 * its message nor a "Cancelled" footer (issue 23.11). The run's saved
 * metadata or its folded view says so, whichever is newer.
 */
export function withdrawn(m: Message, v: RunView | undefined): boolean {
  const status = v?.terminal ? v.status : m.run?.status;
  if (status !== "cancelled" || m.run?.started_at) return false;
  if (v && (v.firstSeq > 1 || v.timeline.some((e) => e.type === "run.started"))) return false;
  return !!m.run || !!v?.terminal;
}

export function transcriptItems({ messages, runs, queued, wait, cache, readOnly }: ItemsInput): Item[] {
  const out: Item[] = [];
  const gone = new Set<string>();
  for (const m of messages) if (m.run_id && !gone.has(m.run_id) && withdrawn(m, runs.view(m.run_id))) gone.add(m.run_id);
  // The wait row goes right under the run it is about, above follow-ups
  // queued behind it: the queued rows stay the transcript's last, so their
  // Edit and Cancel do not move as the wait line comes and goes while the
  // answer streams (issue 23.11).
  let waitAt = -1;
  for (const m of messages) {
    if (m.run_id && gone.has(m.run_id)) continue;
    if (wait && m.run_id === wait.runId && m.role === "assistant") waitAt = Number.MAX_SAFE_INTEGER;
    else if (waitAt === Number.MAX_SAFE_INTEGER) waitAt = out.length;
    if (m.role === "user") {
      const q = m.run_id && queued.has(m.run_id) ? m.run_id : undefined;
      out.push({ key: `m:${m.id}`, kind: "user", text: m.content, queuedRun: q, attachments: m.attachments, ...(m.review?.length ? { review: m.review } : {}) });
      continue;
    }
    const v = m.run_id ? runs.view(m.run_id) : undefined;
    if (!v || (v.blocks.length === 0 && m.content)) {
      if (m.content) out.push({ key: `m:${m.id}`, kind: "static", text: m.content, runId: m.run_id });
      // An older turn that did not complete says so without its events.
      const rs = m.run?.status;
      if (rs && rs !== "completed" && isTerminalStatus(rs)) {
        let it = cache.get(m);
        if (!it) {
          const block: Block = { kind: "done", key: `m:${m.id}:end`, seq: 0, status: rs, error: m.error ?? m.run?.error };
          it = { key: block.key, kind: "block", runId: m.run_id ?? "", block, live: false };
          cache.set(m, it);
        }
        out.push(it);
      }
      continue;
    }
    if (runs.hasOlder(v.runId)) out.push({ key: `older:${v.runId}`, kind: "older", runId: v.runId });
    // Live while the fold says so — unless the session is a record, or the
    // journal already holds the run as ended (its events stop short of done).
    const live = !v.terminal && !readOnly && !m.run?.terminal;
    for (let at = 0; at < v.blocks.length; at++) {
      const raw = v.blocks[at]!;
      if (raw.kind === "user") continue; // the session's own message is shown
      const b = raw.kind === "done" ? footer(raw, v.blocks) : raw;
      let it = cache.get(b);
      if (!it || (it.kind === "block" && it.live !== live)) {
        it = { key: b.key, kind: "block", runId: v.runId, block: b, live, at };
        cache.set(b, it);
      }
      out.push(it);
    }
  }
  if (wait) {
    const row: Item = { key: `wait:${wait.runId}`, kind: "wait", text: wait.text };
    if (waitAt >= 0 && waitAt < out.length) out.splice(waitAt, 0, row);
    else out.push(row);
  }
  return out;
}

const footers = new WeakMap<DoneBlock, DoneBlock>();

/**
 * The run's footer, told with what the run showed above it: an error that
 * has its own card is not repeated, and a completed run whose request was
 * denied says so rather than looking like a plain success.
 */
export function footer(done: DoneBlock, blocks: Block[]): DoneBlock {
  const hit = footers.get(done);
  if (hit) return hit;
  const errorShown = blocks.some((b) => b.kind === "error");
  const denied = done.status === "completed" && blocks.some((b) => b.kind === "approval" && !!b.resolved && isDenied(b.resolved.choice, b.options));
  const out = errorShown || denied ? { ...done, errorShown, note: denied ? "the request was denied" : undefined } : done;
  footers.set(done, out);
  return out;
}

function isDenied(choice: string, options: { id: string; kind?: string }[]): boolean {
  const o = options.find((x) => x.id === choice);
  return (o?.kind ?? choice).startsWith("reject");
}
