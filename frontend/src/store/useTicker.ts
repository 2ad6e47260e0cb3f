import { useEffect, useState } from "react";

/**
 * The one clock of the frontend (docs/ARCHITECTURE.md §Idle): the current
 * time (ms), read again only at the instant the caller's output next
 * changes. `nextChange(now)` says when that is (ms), or undefined when it
 * will not change again; one one-shot timer waits for it, so a countdown
 * in whole seconds wakes once a second while it is shown and not at all
 * once it reaches its end. No timer runs while the page is hidden (it
 * catches up when shown again) or after unmount. Pass a stable function
 * (useCallback): a new one re-arms the timer. setInterval is banned
 * everywhere by eslint.config.js.
 */
export function useTicker(nextChange: (now: number) => number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  const visible = usePageVisible();
  useEffect(() => {
    if (!visible) return;
    const due = nextChange(now);
    if (due === undefined) return;
    const id = window.setTimeout(() => setNow(Date.now()), Math.max(0, due - Date.now()));
    return () => window.clearTimeout(id);
  }, [nextChange, now, visible]);
  return now;
}

/** Whether the page is shown; on showing again the clock is read anew. */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState !== "hidden");
  useEffect(() => {
    const on = () => setVisible(document.visibilityState !== "hidden");
    document.addEventListener("visibilitychange", on);
    return () => document.removeEventListener("visibilitychange", on);
  }, []);
  return visible;
}
