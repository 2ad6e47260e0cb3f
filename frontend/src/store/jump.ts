// Search hits → transcript rows. A hit names a message (user prompt or
// assistant answer) or a run event by seq (tool.done, reasoning.done, done);
// this maps it to the key of the row that shows it, so the transcript can
// scroll there. Pure functions: the paging lives in RunStore.loadBack.
import type { RunEvent, SearchHit } from "../transport/types";
import type { Block, RunView } from "./model";

/** journal.HighlightStart / HighlightEnd around each matched term. */
export const MARK_START = "«";
export const MARK_END = "»";

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * Splits a snippet at its markers. Text stays text (React escapes it); a
 * stray or unclosed marker is shown as it is rather than guessed at.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const out: SnippetPart[] = [];
  let rest = snippet;
  for (;;) {
    const a = rest.indexOf(MARK_START);
    const b = a < 0 ? -1 : rest.indexOf(MARK_END, a + 1);
    if (a < 0 || b < 0) break;
    if (a > 0) out.push({ text: rest.slice(0, a), mark: false });
    if (b > a + 1) out.push({ text: rest.slice(a + 1, b), mark: true });
    rest = rest.slice(b + 1);
  }
  if (rest) out.push({ text: rest, mark: false });
  return out;
}

/** The distinct matched terms of a snippet, lower-cased. */
export function markedTerms(snippet: string | undefined): string[] {
  if (!snippet) return [];
  const terms = snippetParts(snippet)
    .filter((p) => p.mark)
    .map((p) => p.text.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(terms)];
}

/** What a jump aims at: one search hit, stamped so picking it again re-jumps. */
export interface JumpTarget {
  sessionId: string;
  runId?: string;
  messageId?: string;
  seq?: number;
  kind?: string;
  terms: string[];
  nonce: number;
}

let nonce = 0;
export function jumpTarget(h: SearchHit): JumpTarget {
  return {
    sessionId: h.session_id ?? "",
    runId: h.run_id || undefined,
    messageId: h.message_id || undefined,
    seq: h.seq || undefined,
    kind: h.kind,
    terms: markedTerms(h.snippet),
    nonce: ++nonce,
  };
}

/** Identity of a hit for de-duplication: one row per message or event. */
export function hitKey(h: SearchHit): string {
  return [h.session_id ?? "", h.run_id ?? "", h.message_id ?? "", h.seq ?? 0].join("|");
}

function str(p: unknown, k: string): string | undefined {
  const v = p && typeof p === "object" ? (p as Record<string, unknown>)[k] : undefined;
  return typeof v === "string" ? v : undefined;
}

function lastBefore(v: RunView, seq: number, ok: (b: Block) => boolean): Block | undefined {
  for (let i = v.blocks.length - 1; i >= 0; i--) {
    const b = v.blocks[i]!;
    if (b.seq <= seq && ok(b)) return b;
  }
  return undefined;
}

/**
 * The block that shows event `ev` of the run: a tool's card for its events,
 * the reasoning block a reasoning.done closed, and for the run's done (an
 * assistant answer hit) the text block that holds the matched terms.
 * Undefined when the event is not in the view (compacted or never loaded).
 */
export function blockForEvent(v: RunView, ev: RunEvent | undefined, terms: readonly string[]): Block | undefined {
  if (!ev) return undefined;
  const seq = ev.seq;
  const notUser = (b: Block) => b.kind !== "user";
  switch (ev.type) {
    case "tool.started":
    case "tool.updated":
    case "tool.done": {
      const i = v.index.get(`tool:${str(ev.payload, "tool_call_id") ?? `seq${seq}`}`);
      return i === undefined ? lastBefore(v, seq, notUser) : v.blocks[i];
    }
    case "reasoning.done":
      return lastBefore(v, seq, (b) => b.kind === "reasoning") ?? lastBefore(v, seq, notUser);
    case "done": {
      const texts = v.blocks.filter((b) => b.kind === "text" && b.seq <= seq) as Extract<Block, { kind: "text" }>[];
      const hit = texts.find((b) => {
        const t = b.text.toLowerCase();
        return terms.some((w) => t.includes(w));
      });
      return hit ?? texts[texts.length - 1] ?? lastBefore(v, seq, notUser);
    }
    default:
      return lastBefore(v, seq, notUser);
  }
}
