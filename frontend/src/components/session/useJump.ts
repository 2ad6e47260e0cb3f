import { useEffect, useMemo, useRef, useState } from "react";
import { blockForEvent, type JumpTarget } from "../../store/jump";
import type { RunStore } from "../../store/runStore";
import type { SessionDetail } from "../../transport/types";

/** Where the transcript should scroll, once per picked hit. */
export interface Focus {
  key: string;
  nonce: number;
}

export const NOT_FOUND_NOTE = "That match is no longer in this session's history (it may have been cleaned up). Showing the latest.";

/**
 * The transcript row key that shows the target, after attaching its run and
 * paging back to its seq; undefined when it cannot be found (deleted,
 * compacted by retention).
 */
export async function resolveJump(runs: RunStore, detail: SessionDetail, t: JumpTarget): Promise<string | undefined> {
  const ms = detail.messages;
  const m = t.messageId ? ms.find((x) => x.id === t.messageId) : undefined;
  if (m?.role === "user") return `m:${m.id}`;
  const runId = t.runId ?? m?.run_id;
  const am = runId ? ms.find((x) => x.role === "assistant" && x.run_id === runId) : undefined;
  if (!runId || !am) return undefined;
  await runs.attach(runId, { sessionId: detail.id, lastSeq: am.run?.last_seq });
  const v = runs.view(runId);
  // The transcript shows such a turn as its saved text (SessionView items).
  if (!v || (v.blocks.length === 0 && am.content)) return am.content && t.kind === "assistant" ? `m:${am.id}` : undefined;
  if (!t.seq) return undefined;
  await runs.loadBack(runId, t.seq);
  const now = runs.view(runId);
  const b = now && blockForEvent(now, runs.event(runId, t.seq), t.terms);
  return b?.key;
}

/** The run a target needs attached (it may be older than the attached tail of runs). */
export function targetRun(detail: SessionDetail | null, t: JumpTarget | undefined): string | undefined {
  if (!detail || !t) return undefined;
  if (t.runId) return t.runId;
  const m = t.messageId ? detail.messages.find((x) => x.id === t.messageId) : undefined;
  return m?.role === "assistant" ? m.run_id : undefined;
}

/**
 * Jumps once per target: resolves it when the session has loaded, then
 * hands the transcript a focus, or a quiet note when it is gone. Later
 * reloads of the session do not jump again.
 */
export function useJump(runs: RunStore, detail: SessionDetail | null, target: JumpTarget | undefined) {
  const [focus, setFocus] = useState<Focus>();
  const [note, setNote] = useState<string>();
  const handled = useRef<number | undefined>(undefined);
  const loaded = detail !== null;
  // Keyed on "loaded", not on each reload of the session: a jump happens
  // once, from the session as it was when it loaded.
  const detailNow = useRef(detail);
  detailNow.current = detail;
  const extraRun = useMemo(() => (loaded ? targetRun(detailNow.current, target) : undefined), [loaded, target]);

  useEffect(() => {
    const detail = detailNow.current;
    if (!target || !detail || handled.current === target.nonce) return;
    handled.current = target.nonce;
    let live = true;
    let settled = false;
    resolveJump(runs, detail, target).then(
      (key) => {
        settled = true;
        if (!live) return;
        if (key) {
          setNote(undefined);
          setFocus({ key, nonce: target.nonce });
        } else setNote(NOT_FOUND_NOTE);
      },
      () => {
        settled = true;
        if (live) setNote(NOT_FOUND_NOTE);
      },
    );
    return () => {
      live = false;
      if (!settled) handled.current = undefined; // unmounted mid-way (StrictMode): try again
    };
  }, [runs, loaded, target]);

  return { focus, note, extraRun, dismissNote: () => setNote(undefined) };
}
