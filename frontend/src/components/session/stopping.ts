import { useCallback, useEffect, useState } from "react";
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
 * When a countdown started at `since` next shows another number (ms), or
 * undefined once it says "forcing it now": the one timer it needs.
 */
export function forceChangesAt(since: number, now: number): number | undefined {
  const next = Math.floor((Math.max(now, since) - since) / 1000) + 1;
  return next > FORCE_AFTER_S ? undefined : since + next * 1000;
}

/**
 * While `cancelling`, the seconds left before the agent is killed anyway,
 * read once a second until it reaches 0 (no timer after); undefined otherwise.
 */
export function useForceCountdown(cancelling: boolean): number | undefined {
  const [since, setSince] = useState<number>();
  useEffect(() => {
    setSince(cancelling ? Date.now() : undefined);
  }, [cancelling]);
  const shownSince = cancelling ? since : undefined;
  const nextChange = useCallback(
    (now: number) => (shownSince === undefined ? undefined : forceChangesAt(shownSince, now)),
    [shownSince],
  );
  const now = useTicker(nextChange);
  return shownSince !== undefined ? forceIn(shownSince, Math.max(now, shownSince)) : undefined;
}
