// The session's checkpoint records for its transcript's footers: read once
// from GET /api/sessions/{id}/checkpoints, then kept current by the watch
// bus — checkpoint.changed brings each undo and restore, a run's end or a
// reconnect reads the list again (a run's own record is taken at its start
// without a message). No polling (docs/ARCHITECTURE.md §Checkpoints).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Checkpoint, CheckpointResult, WatchMessage } from "../../contract/wire.gen";
import { isTerminalStatus, type Session } from "../../transport/types";

export interface CheckpointApi {
  undoRun(runId: string): Promise<CheckpointResult>;
  undoCheckpoint(id: string): Promise<CheckpointResult>;
  restoreTurn(sessionId: string, turnId: string, opts?: { preview?: boolean; removeCreated?: boolean }): Promise<CheckpointResult>;
  sessionCheckpoints(sessionId: string): Promise<Checkpoint[]>;
  /** Fork from here: the new session (absent: no Fork button). */
  forkSession?(sessionId: string, turnId: string): Promise<Session>;
}

export interface CheckpointBus {
  subscribe(cb: (m: WatchMessage) => void): () => void;
}

export interface SessionCheckpoints {
  sessionId: string;
  records: readonly Checkpoint[];
  api: CheckpointApi;
  /** A result's record, placed at once (the bus brings it too; same id). */
  put(rec: Checkpoint | undefined): void;
  /** Opens a session (a fork just made). */
  openSession?(s: Session): void;
}

const Ctx = createContext<SessionCheckpoints | undefined>(undefined);

export function useSessionCheckpoints(): SessionCheckpoints | undefined {
  return useContext(Ctx);
}

function upsert(list: readonly Checkpoint[], rec: Checkpoint): Checkpoint[] {
  const i = list.findIndex((r) => r.id === rec.id);
  if (i < 0) return [...list, rec].sort((a, b) => a.created_at.localeCompare(b.created_at));
  const next = [...list];
  next[i] = rec;
  return next;
}

/** The session's records and what changes them; one per session view, shared by its transcript and inspector. */
export function useCheckpointRecords(api: CheckpointApi, bus: CheckpointBus, sessionId: string, openSession?: (s: Session) => void): SessionCheckpoints {
  const [records, setRecords] = useState<readonly Checkpoint[]>([]);
  const load = useCallback(async () => {
    try {
      setRecords(await api.sessionCheckpoints(sessionId));
    } catch {
      // No checkpoints to offer (an older backend, or none kept): the
      // footers offer nothing rather than an error on every turn.
      setRecords([]);
    }
  }, [api, sessionId]);
  useEffect(() => {
    setRecords([]);
    void load();
  }, [load]);
  useEffect(
    () =>
      bus.subscribe((m) => {
        if (m.type === "checkpoint.changed" && m.checkpoint?.session_id === sessionId) {
          const rec = m.checkpoint;
          setRecords((l) => upsert(l, rec));
        } else if (m.type === "snapshot" || (m.type === "run.changed" && m.run?.session_id === sessionId && isTerminalStatus(m.run.status))) {
          void load();
        }
      }),
    [bus, sessionId, load],
  );
  const put = useCallback((rec: Checkpoint | undefined) => {
    if (rec) setRecords((l) => upsert(l, rec));
  }, []);
  return useMemo(() => ({ sessionId, records, api, put, openSession }), [sessionId, records, api, put, openSession]);
}

export const CheckpointsContext = Ctx;

/** A provider that reads the records itself (tests, a view with one consumer). */
export function CheckpointsProvider({ api, bus, sessionId, openSession, children }: { api: CheckpointApi; bus: CheckpointBus; sessionId: string; openSession?: (s: Session) => void; children: ReactNode }) {
  return <Ctx.Provider value={useCheckpointRecords(api, bus, sessionId, openSession)}>{children}</Ctx.Provider>;
}
