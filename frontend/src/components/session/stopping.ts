import { useEffect, useState } from "react";
import { CANCEL_LADDER } from "../../contract/wire.gen";
import { useTicker } from "../../store/useTicker";

/**
 * Seconds from Stop until the shim kills a stubborn agent on its own: the
 * protocol cancel's wait, then SIGTERM's grace before SIGKILL
 * (docs/ARCHITECTURE.md §Cancel ladder; the timings come from the generated
 * contract). Force stop skips the wait.
 */
export const FORCE_AFTER_S = (CANCEL_LADDER.protocol_cancel_ms + CANCEL_LADDER.default_cancel_grace_ms) / 1000;

/** Whole seconds left before the automatic kill, counted from `since` (ms). */
export function forceIn(since: number, now: number): number {
  return Math.max(0, FORCE_AFTER_S - Math.floor((now - since) / 1000));
}

/** What a cancelling run says while it waits to stop. */
export function stoppingText(agent: string, left: number | undefined): string {
  if (left === undefined) return `Stopping ${agent}…`;
  return left > 0 ? `Stopping ${agent}… (force in ${left} s)` : `Stopping ${agent}… (forcing it now)`;
}

/**
 * While `cancelling`, the seconds left before the agent is killed anyway,
 * ticking once a second; undefined otherwise.
 */
export function useForceCountdown(cancelling: boolean): number | undefined {
  const [since, setSince] = useState<number>();
  const now = useTicker(cancelling, 1000);
  useEffect(() => {
    setSince(cancelling ? Date.now() : undefined);
  }, [cancelling]);
  return cancelling && since !== undefined ? forceIn(since, Math.max(now, since)) : undefined;
}
