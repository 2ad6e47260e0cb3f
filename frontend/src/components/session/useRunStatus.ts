import { useCallback, useEffect, useMemo, useState } from "react";
import type { RunStore } from "../../store/runStore";
import type { Session, SessionDetail } from "../../transport/types";
import { isTerminalStatus } from "../../transport/types";
import { sessionRuns } from "./activeRun";
import { queueWait } from "./queueWait";
import { useForceCountdown } from "./stopping";

/**
 * Where the session's work stands: the run that is working or waiting for
 * the person (the header, Stop and the inspector follow it), the
 * follow-ups queued behind it, and what the agent asks now.
 */
export function useRunStatus(runs: RunStore, session: Session, detail: SessionDetail | null, tick: number) {
  const liveStatus = useCallback(
    (id: string) => {
      const v = runs.view(id);
      return v && v.status !== "unknown" ? v.status : undefined;
    },
    [runs],
  );
  const { activeId: latestId, latestId: newestId, queued } = useMemo(
    () => sessionRuns(detail?.messages ?? [], liveStatus),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [detail, tick, liveStatus],
  );
  const latestMsg = useMemo(() => [...(detail?.messages ?? [])].reverse().find((m) => m.run_id === latestId && m.run) ?? (detail?.messages ?? []).find((m) => m.run_id === latestId), [detail, latestId]);
  const latest = latestId ? runs.view(latestId) : undefined;
  // A run the journal holds as ended is ended, whatever its events left
  // unsaid (an older import without a done): its status, not the fold's.
  const status = latestMsg?.run?.terminal
    ? latestMsg.run.status
    : latest && latest.status !== "unknown" ? latest.status : latestMsg?.run?.status ?? "idle";
  const forceLeft = useForceCountdown(status === "cancelling");
  // Why a queued run waits, from the watch bus: re-read whenever a run
  // anywhere moves while this one is queued (a slot may have freed).
  const [busTick, setBusTick] = useState(0);
  const isQueued = status === "queued";
  useEffect(() => (isQueued ? runs.bus.subscribe(() => setBusTick((n) => n + 1)) : undefined), [runs, isQueued]);
  const queuedWhy = useMemo(
    () => (isQueued && latestId ? queueWait(runs.bus.active(), latestId) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- busTick: the bus moved
    [runs, isQueued, latestId, busTick],
  );
  // An imported session is a record: whatever its runs' events say, nothing
  // in it is live — no Stop, no status, no answers (docs/ARCHITECTURE.md
  // §Bundles).
  const imported = !!session.imported_from;
  const active = !imported && !!latestId && status !== "idle" && !isTerminalStatus(status);
  const queuedSet = useMemo(() => new Set(imported ? [] : queued.filter((id) => id !== latestId || status === "queued")), [queued, latestId, status, imported]);

  // While the agent asks a question, the composer answers it rather than
  // queueing a follow-up nobody reads until the question times out.
  const asking = useMemo(() => {
    if (imported || !latest || latest.terminal || status !== "awaiting_clarify") return undefined;
    const b = [...latest.blocks].reverse().find((x) => x.kind === "clarify");
    return b && b.kind === "clarify" && b.answer === undefined ? b : undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest, tick, status, imported]);

  return {
    latestId,
    newestId,
    latest,
    status,
    forceLeft,
    queuedWhy,
    imported,
    active,
    queuedSet,
    asking,
    approving: !imported && status === "awaiting_approval",
    agent: latest?.agent || session.agent,
  };
}

export type RunStatusView = ReturnType<typeof useRunStatus>;
