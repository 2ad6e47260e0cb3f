// An open session is read again after each of its runs (a new turn, a run
// that ended, a retitle). Reading the whole session each time made a long
// session cost each run more than the one before — the window, the core and
// WebKit parsed every turn again (issue 23.20, docs/ARCHITECTURE.md
// §Memory) — so the view reads only its last messages
// (GET /api/sessions/{id}?tail=N) and puts them in place of its own.
// Pure; table-tested.
import type { SessionDetail } from "../../transport/types";

/** Messages re-read after the first read: more than a run and its queued follow-ups change. */
export const SESSION_TAIL = 40;

/**
 * The session as `fresh` (its last `tail` messages, or all of them when it
 * has no more) says, with the older messages `held` already has in front.
 * Null when the two do not meet — more messages came than the tail holds,
 * or there is nothing held yet — and the whole session must be read.
 */
export function withTail(held: SessionDetail | null, fresh: SessionDetail, tail: number): SessionDetail | null {
  if (fresh.messages.length < tail) return fresh; // the whole session
  if (!held || held.id !== fresh.id) return null;
  const first = fresh.messages[0];
  if (!first) return fresh;
  const at = held.messages.findIndex((m) => m.id === first.id);
  if (at < 0) return null;
  return { ...fresh, messages: [...held.messages.slice(0, at), ...fresh.messages] };
}
