// The session view's words and small readings of its runs: pure, so the
// view and its hooks share them (docs/ARCHITECTURE.md §Session view).
import type { RunStore } from "../../store/runStore";
import type { RunView } from "../../store/model";
import type { ControlResult, Message } from "../../transport/types";
import { isTerminalStatus } from "../../transport/types";
import { bannerError } from "../common/bannerError";
import { stoppingText } from "./stopping";
import { parkedText } from "../../usage/parked";

export function controlNote(r: ControlResult): string | undefined {
  switch (r.status) {
    case "accepted":
      return undefined;
    case "not-active":
      return r.message || "Nothing is waiting for this answer any more.";
    case "conflict":
      return r.message || "A different answer was already given.";
    case "unsupported":
      return r.message || "This agent cannot do that.";
    case "expired":
      return r.message || "The question timed out.";
  }
}

/** A failure as the one sentence a card's note or a banner shows (bannerError.ts). */
export function errText(err: unknown): string {
  return bannerError(err).lead;
}

/** What Stop does to the follow-ups queued behind the run. */
export function queueNote(n: number): string {
  return n === 1
    ? "your queued message still runs next; cancel it below if you don't want it"
    : `your ${n} queued messages still run next; cancel them below if you don't want them`;
}

/** What the latest run waits for, in words (a spinner alone is not an answer). */
export function waitText(v: RunView | undefined, status: string, agent: string, forceLeft?: number, queued?: string): string | undefined {
  if (isTerminalStatus(status)) return undefined;
  switch (status) {
    case "queued":
      return queued ?? "Queued — starts when the previous run in this session ends";
    case "awaiting_approval":
      return "Waiting for your approval above";
    case "awaiting_clarify":
      return "Waiting for your answer above";
    case "cancelling":
      return stoppingText(agent, forceLeft);
    case "paused":
      return `${agent} paused`;
    case "parked":
      return parkedText(v?.resumesAt);
  }
  if (v?.progress?.message) return v.progress.message;
  const last = v?.blocks[v.blocks.length - 1];
  if (!last || last.kind === "user") return `Waiting for ${agent} to respond…`;
  if (last.kind === "tool" && last.status === "running") return `Waiting for ${last.name} to finish…`;
  if (last.kind === "text" && !last.done) return undefined; // the text itself shows progress
  return `${agent} is working…`;
}

/** The inspector's run picker: one entry per turn, named by its first words. */
export function turnChoices(messages: readonly Message[]): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = [];
  let n = 0;
  let asked = "";
  for (const m of messages) {
    if (m.role === "user") asked = m.content;
    if (!m.run_id || out.some((c) => c.id === m.run_id)) continue;
    n++;
    const words = asked.split("\n")[0]!.slice(0, 40);
    out.push({ id: m.run_id, label: words ? `Turn ${n}: ${words}` : `Turn ${n}` });
  }
  return out;
}

/** The model the newest run that reported one ran on (its run.started). */
export function lastRunModel(runs: Pick<RunStore, "view">, runIds: string[]): string | undefined {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const m = runs.view(runIds[i]!)?.model;
    if (m) return m;
  }
  return undefined;
}

/** The model of the newest run the journal knows of in these messages. */
export function lastModelOf(ms: { run?: { model?: string } }[] | undefined): string | undefined {
  for (let i = (ms?.length ?? 0) - 1; i >= 0; i--) {
    const m = ms![i]!.run?.model;
    if (m) return m;
  }
  return undefined;
}
