import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { JumpTarget } from "../../store/jump";
import type { RunStore } from "../../store/runStore";
import type { SessionDetail } from "../../transport/types";
import { revealRun } from "./revealed";
import { useJump } from "./useJump";

/** Runs of a session followed event by event; earlier turns show their saved text. */
const ATTACH_LAST = 10;

/**
 * Which of the session's runs the view follows live — the last few, the
 * older ones scrolled to (revealed.ts), a search hit's — and a tick that
 * moves when one of them changed shape (docs/ARCHITECTURE.md §Session view).
 */
export function useFollowedRuns(runs: RunStore, detail: SessionDetail | null, target: JumpTarget | undefined, sessionId: string) {
  const jump = useJump(runs, detail, target);
  // The older turns followed, the last REVEAL_MAX scrolled to (revealed.ts).
  const [revealedList, setRevealed] = useState<readonly string[]>([]);
  const revealed = useMemo(() => new Set(revealedList), [revealedList]);
  const reveal = useCallback((runId: string) => setRevealed((r) => revealRun(r, runId)), []);
  const attached = useMemo(() => {
    const ms = (detail?.messages ?? []).filter((m) => m.role === "assistant" && m.run_id);
    // Older turns are followed once they scroll into view (revealed), so
    // their tool cards, thoughts, plans and footers come back on demand.
    const tail = ms.filter((m, i) => i >= ms.length - ATTACH_LAST || revealed.has(m.run_id!));
    // A search hit in an older turn follows that run too, so it shows as events.
    const extra = jump.extraRun && !tail.some((m) => m.run_id === jump.extraRun) ? ms.find((m) => m.run_id === jump.extraRun) : undefined;
    return (extra ? [extra, ...tail] : tail).map((m) => ({ id: m.run_id!, lastSeq: m.run?.last_seq }));
  }, [detail, jump.extraRun, revealed]);
  const attachedKey = attached.map((a) => a.id).join(",");
  // Attach and detach only when the set of runs changes (attachedKey), not
  // when a reload of the session brings the same runs with newer seqs.
  const attachedNow = useRef(attached);
  attachedNow.current = attached;

  useEffect(() => {
    const list = attachedNow.current;
    for (const a of list) void runs.attach(a.id, { sessionId, lastSeq: a.lastSeq });
    return () => list.forEach((a) => runs.detach(a.id));
  }, [runs, attachedKey, sessionId]);

  // Re-render when one of this session's runs changed shape (a block
  // added or closed, its status, a prompt), at most once per flushed frame.
  // Text streaming into the open block re-renders only that row
  // (Transcript's live rows; docs/ARCHITECTURE.md §Session view).
  const subscribe = useCallback(
    (cb: () => void) => {
      const ids = new Set(attachedKey.split(","));
      return runs.subscribeAll((id) => ids.has(id) && cb());
    },
    [runs, attachedKey],
  );
  const snapshot = useCallback(() => attached.reduce((n, a) => n + runs.shapeVersion(a.id), 0), [runs, attached]);
  const tick = useSyncExternalStore(subscribe, snapshot);
  const ids = useMemo(() => attached.map((a) => a.id), [attached]);
  return { jump, reveal, ids, tick };
}
