import type { RunInfo } from "../../transport/types";

/**
 * Why a queued run has not started, from the watch bus's active runs — the
 * same facts the supervisor's scheduler decides from (at most one active run
 * per session, a cap on running runs overall; docs/ARCHITECTURE.md
 * §Scheduling): an earlier run of its session goes first; otherwise it
 * waits for one of the running runs to end. Undefined when it is not queued
 * or the bus does not know it.
 */
export function queueWait(active: readonly RunInfo[], runId: string): string | undefined {
  const r = active.find((x) => x.id === runId);
  if (!r || r.status !== "queued") return undefined;
  const ahead = active.find((x) => x.id !== r.id && x.session_id === r.session_id && (x.status !== "queued" || (x.created_at ?? "") < (r.created_at ?? "")));
  if (ahead) return "Queued — starts when this session's current run ends";
  const running = active.filter((x) => x.status !== "queued").length;
  if (running > 0) return `Waiting for a free slot (${running} running)`;
  return "Queued — starting…";
}
