import { useEffect, useMemo, useRef } from "react";
import type { RunStore } from "../../store/runStore";
import type { SessionDetail } from "../../transport/types";
import { waitText } from "./sessionText";
import type { Item } from "./Transcript";
import { transcriptItems } from "./transcriptItems";
import type { RunStatusView } from "./useRunStatus";

/**
 * The transcript's rows. One item object per block object, so unchanged
 * rows keep their identity and only the streaming row re-renders.
 */
export function useTranscriptItems(runs: RunStore, detail: SessionDetail | null, run: RunStatusView, tick: number, agentLabel: string): Item[] {
  const itemCache = useRef(new WeakMap<object, Item>());
  const { active, latest, status, forceLeft, queuedWhy, queuedSet, latestId, imported } = run;
  return useMemo<Item[]>(() => {
    void tick; // the runs' folded blocks moved: rebuild from them
    const w = active ? waitText(latest, status, agentLabel, forceLeft, queuedWhy) : undefined;
    return transcriptItems({
      messages: detail?.messages ?? [],
      runs,
      queued: queuedSet,
      wait: w && latestId ? { runId: latestId, text: w } : undefined,
      cache: itemCache.current,
      readOnly: imported,
    });
  }, [detail, tick, active, status, agentLabel, queuedSet, latest, latestId, runs, forceLeft, queuedWhy, imported]);
}

/** A run that ends may start a queued one and retitle the session: read both again. */
export function useReloadWhenEnded(ended: boolean, load: () => Promise<void>, onChanged: () => void) {
  const changed = useRef(onChanged);
  changed.current = onChanged;
  useEffect(() => {
    if (ended) {
      void load();
      changed.current();
    }
  }, [ended, load]);
}
