import { useCallback, useEffect, useRef, useState } from "react";
import type { RunStore } from "../../store/runStore";
import type { Transport } from "../../transport/transport";
import type { SessionDetail } from "../../transport/types";
import { SESSION_TAIL, withTail } from "./sessionTail";

/**
 * The open session's transcript as the journal holds it, read again when
 * a run appears in it — started here, by the CLI, the API, another tab or
 * a schedule: the watch bus says so and the re-read attaches and streams it.
 */
export function useSessionDetail(t: Transport, runs: RunStore, sessionId: string) {
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  // A plain note (string) or what was thrown, shown by ErrorBanner.
  const [err, setErr] = useState<unknown>();

  // After the first read, only the session's last messages are read again
  // (sessionTail.ts): a long session's every run no longer re-reads it all.
  const held = useRef<SessionDetail | null>(null);
  held.current = detail;
  const load = useCallback(async () => {
    try {
      // A tail that cannot be read (or does not meet what is held) is
      // settled by reading the whole session, which says why if it fails.
      const fresh = held.current?.id === sessionId ? await t.api.getSession(sessionId, SESSION_TAIL).catch(() => null) : null;
      setDetail((fresh && withTail(held.current, fresh, SESSION_TAIL)) ?? (await t.api.getSession(sessionId)));
      setErr(undefined);
    } catch (e) {
      setErr(e);
    }
  }, [t, sessionId]);

  useEffect(() => {
    setDetail(null);
    void load();
  }, [load]);

  const known = useRef(new Set<string>());
  known.current = new Set((detail?.messages ?? []).flatMap((m) => (m.run_id ? [m.run_id] : [])));
  useEffect(
    () =>
      runs.bus.subscribe((m) => {
        const states = m.type === "snapshot" ? (m.snapshot?.runs ?? []) : m.type === "run.changed" && m.run ? [m.run] : [];
        if (states.some((r) => r.session_id === sessionId && !known.current.has(r.run_id))) void load();
      }),
    [runs, sessionId, load],
  );
  return { detail, err, setErr, load };
}
