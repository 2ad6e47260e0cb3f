// Connection, projects, sessions, active runs and agents: what the sidebar
// and the empty states need. Polls lightly (active runs only) while visible.
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, isUnavailable } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { AgentInfo, Project, RunInfo, Session } from "../transport/types";

export type Conn = "connecting" | "connected" | "offline" | "unauthorized";

export interface Backend {
  conn: Conn;
  projects: Project[];
  sessions: Record<string, Session[]>;
  active: RunInfo[];
  agents: AgentInfo[] | null;
  error?: string;
  refresh(): Promise<void>;
  refreshActive(): Promise<void>;
  /** Shows a session the API just changed, before the next refresh. */
  putSession(s: Session): void;
  /** Forgets a session the API just deleted. */
  dropSession(id: string): void;
}

const POLL_MS = 3000;
const OFFLINE_RETRY_MS = 5000;

export function useBackend(t: Transport): Backend {
  const [conn, setConn] = useState<Conn>("connecting");
  const [projects, setProjects] = useState<Project[]>([]);
  const [sessions, setSessions] = useState<Record<string, Session[]>>({});
  const [active, setActive] = useState<RunInfo[]>([]);
  const [agents, setAgents] = useState<AgentInfo[] | null>(null);
  const [error, setError] = useState<string>();
  const activeKey = useRef("");

  const onError = useCallback((err: unknown) => {
    if (isUnavailable(err)) setConn("offline");
    else if (err instanceof ApiError && (err.status === 401 || err.status === 403)) setConn("unauthorized");
    else {
      setError(err instanceof Error ? err.message : String(err));
      // Never stay on "Connecting…": a backend that fails its first answer is not usable.
      setConn((c) => (c === "connecting" ? "offline" : c));
    }
  }, []);

  const refresh = useCallback(async () => {
    try {
      const ps = await t.api.listProjects();
      const entries = await Promise.all(ps.map(async (p) => [p.id, await t.api.listSessions(p.id)] as const));
      setProjects(ps);
      setSessions(Object.fromEntries(entries));
      setConn("connected");
      setError(undefined);
      t.api.listRuns({ status: "active" }).then(setActive, () => {});
      t.api.agents().then(setAgents, () => setAgents([]));
    } catch (err) {
      onError(err);
    }
  }, [t, onError]);

  const refreshActive = useCallback(async () => {
    try {
      const runs = await t.api.listRuns({ status: "active" });
      setActive(runs);
      // A run starting or ending moves its session in the list.
      const key = runs.map((r) => `${r.id}:${r.status}`).sort().join(",");
      if (key !== activeKey.current) {
        activeKey.current = key;
        void refresh();
      }
    } catch (err) {
      onError(err);
    }
  }, [t, refresh, onError]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    const ms = conn === "connected" ? POLL_MS : conn === "unauthorized" ? 0 : OFFLINE_RETRY_MS;
    if (!ms) return;
    const id = setInterval(() => {
      if (document.visibilityState === "hidden") return;
      void (conn === "connected" ? refreshActive() : refresh());
    }, ms);
    return () => clearInterval(id);
  }, [conn, refresh, refreshActive]);

  const putSession = useCallback((s: Session) => {
    setSessions((m) => {
      const list = m[s.project_id];
      if (!list) return m;
      return { ...m, [s.project_id]: list.map((x) => (x.id === s.id ? { ...x, ...s } : x)) };
    });
  }, []);
  const dropSession = useCallback((id: string) => {
    setSessions((m) => Object.fromEntries(Object.entries(m).map(([pid, list]) => [pid, list.filter((x) => x.id !== id)])));
  }, []);

  return { conn, projects, sessions, active, agents, error, refresh, refreshActive, putSession, dropSession };
}
