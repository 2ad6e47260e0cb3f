// Which quota window a session's header shows (docs/ARCHITECTURE.md §Usage,
// Quota): its agent's vendor only (the vendor is the agent's name, as the
// park decision reads it), the window that binds first.
import type { RunState, WatchMessage } from "../transport/types";
import type { QuotaLine } from "./types";

/** The agent's windows, the one to show first: a reached limit, else the fullest. */
export function quotaFor(lines: readonly QuotaLine[], agent: string): QuotaLine[] {
  const rank = (q: QuotaLine) => (q.limited ? 1000 : (q.used_percent ?? -1));
  return lines.filter((q) => q.vendor === agent).sort((a, b) => rank(b) - rank(a));
}

/**
 * Whether a bus message says a run of the session changed status (pure):
 * `seen` holds each run's last status and is updated. A status never seen
 * before counts only when the message is about one run; a snapshot seeds.
 */
export function statusChanged(m: WatchMessage, sessionId: string, seen: Map<string, string>): boolean {
  const runs: RunState[] = m.type === "snapshot" ? (m.snapshot?.runs ?? []) : m.type === "run.changed" && m.run ? [m.run] : [];
  let changed = false;
  for (const r of runs) {
    if (r.session_id !== sessionId) continue;
    const before = seen.get(r.run_id);
    if (before !== r.status && (before !== undefined || m.type === "run.changed")) changed = true;
    seen.set(r.run_id, r.status);
  }
  return changed;
}

/** StaleAfterMs is usage.StaleAfter: past it the line says the figure's age. */
export const STALE_AFTER_MS = 10 * 60 * 1000;

/**
 * When the shown lines next change their words by the clock alone (pure):
 * a reset passing ("has reset since") or a figure turning stale ("as of …").
 * Milliseconds from now, or undefined when nothing is ahead. One timer at
 * that moment, not a poll.
 */
export function nextChange(lines: readonly QuotaLine[], now: number): number | undefined {
  let next: number | undefined;
  for (const q of lines) {
    const seen = Date.parse(q.seen_at);
    for (const at of [q.resets_at ? q.resets_at * 1000 : NaN, Number.isNaN(seen) ? NaN : seen + STALE_AFTER_MS]) {
      if (at > now && (next === undefined || at < next)) next = at;
    }
  }
  return next === undefined ? undefined : next - now;
}
