// Older turns a person scrolled to are followed (their runs attached, their
// events folded into views) so their tool cards come back — but only the
// last few: a long session read from end to start once kept every run's
// events in the page (issue 23.20, docs/ARCHITECTURE.md §Session view).
// A turn that falls out of this list is detached (RunStore keeps a bounded
// number of detached views) and shows its saved text until it scrolls into
// view again. Pure; table-tested.

/** How many older turns stay followed beyond the session's last ones. */
export const REVEAL_MAX = 12;

/** The followed older runs after `runId` scrolled into view, newest last. */
export function revealRun(list: readonly string[], runId: string, max = REVEAL_MAX): readonly string[] {
  if (list[list.length - 1] === runId) return list;
  const next = [...list.filter((id) => id !== runId), runId];
  return next.length > max ? next.slice(next.length - max) : next;
}
