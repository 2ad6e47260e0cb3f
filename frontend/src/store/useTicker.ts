import { useEffect, useState } from "react";

/**
 * The one clock of the frontend: while `active`, the current time (ms),
 * refreshed every `periodMs`; while idle no timer runs at all
 * (docs/ARCHITECTURE.md §Idle). Raw setInterval is banned elsewhere by
 * eslint.config.js, so nothing ticks while there is nothing to show.
 */
export function useTicker(active: boolean, periodMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), periodMs);
    return () => window.clearInterval(id);
  }, [active, periodMs]);
  return now;
}
