// Connection, projects, sessions, active runs and agents: what the sidebar
// and the empty states need. Live state comes from the watch bus (one
// subscription, store/bus.ts): the lists are re-read only when the bus says
// they changed, agents only when their health was re-checked. Nothing polls.
import { useCallback, useEffect, useRef, useState } from "react";
import type { WatchBus } from "../store/bus";
import { ApiError, isUnavailable } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { AgentInfo, Project, RunInfo, Session } from "../transport/types";

/**
 * "reconnecting": the bus dropped after being connected (the process behind
 * the page is being replaced, e.g. serve taking over from the desktop app):
 * the view stays and says so, and becomes "offline" after RECONNECT_GRACE_MS.
 */
export type Conn = "connecting" | "connected" | "reconnecting" | "offline" | "unauthorized";

export interface Backend {
  conn: Conn;
  projects: Project[];
  sessions: Record<string, Session[]>;
  active: RunInfo[];
  agents: AgentInfo[] | null;
  error?: string;
  refresh(): Promise<void>;
  refreshActive(): Promise<void>;
  /** Checks every agent's health again (Settings' "Re-check"). */
  recheckAgents(): Promise<void>;
  /** Shows a session the API just changed, before the next refresh. */
  putSession(s: Session): void;
  /** Forgets a session the API just deleted. */
  dropSession(id: string): void;
}

/** Without a watch bus (a transport that has none), how often to retry a failed first load. */
const OFFLINE_RETRY_MS = 5000;

/** How long a dropped bus keeps the view before the page says the backend is not connected. */
export const RECONNECT_GRACE_MS = 10_000;

export function useBackend(t: Transport, bus?: WatchBus): Backend {
  const [conn, setConn] = useState<Conn>("connecting");
  const [projects, setProjects] = useState<Project[]>([]);
  const [sessions, setSessions] = useState<Record<string, Session[]>>({});
  const [active, setActive] = useState<RunInfo[]>([]);
  const [agents, setAgents] = useState<AgentInfo[] | null>(null);
  const [error, setError] = useState<string>();
  const listed = useRef(-1); // the sessions version the lists were read at

  const onError = useCallback((err: unknown) => {
    // While the bus reconnects, a failed read is part of the same outage.
    if (isUnavailable(err)) setConn((c) => (c === "reconnecting" ? c : "offline"));
    else if (err instanceof ApiError && (err.status === 401 || err.status === 403)) setConn("unauthorized");
    else {
      setError(err instanceof Error ? err.message : String(err));
      // Never stay on "Connecting…": a backend that fails its first answer is not usable.
      setConn((c) => (c === "connecting" ? "offline" : c));
    }
  }, []);

  const refresh = useCallback(async () => {
    try {
      const version = bus?.sessionsVersion ?? 0;
      const ps = await t.api.listProjects();
      const entries = await Promise.all(ps.map(async (p) => [p.id, await t.api.listSessions(p.id)] as const));
      setProjects(ps);
      setSessions(Object.fromEntries(entries));
      setConn("connected");
      setError(undefined);
      listed.current = version;
      if (!bus?.connected) t.api.listRuns({ status: "active" }).then(setActive, () => {});
    } catch (err) {
      onError(err);
    }
  }, [t, bus, onError]);

  const loadAgents = useCallback(
    (again = false) =>
      t.api.agents(again).then(setAgents, () => setAgents((a) => a ?? [])),
    [t],
  );

  // Kept for callers that just acted on a run: the bus already tells.
  const refreshActive = useCallback(async () => {
    if (bus?.connected) setActive(bus.active());
    else await refresh();
  }, [bus, refresh]);

  useEffect(() => {
    void refresh();
    void loadAgents();
  }, [refresh, loadAgents]);

  // The watch bus: runs, needs-you, session list and agent changes.
  useEffect(() => {
    if (!bus) return;
    // Coalesce list re-reads: a burst of changes reads the lists once.
    let pending = false;
    const relist = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => {
        pending = false;
        if (bus.sessionsVersion !== listed.current) void refresh();
      });
    };
    const off = bus.subscribe((m) => {
      switch (m.type) {
        case "snapshot":
          setActive(bus.active());
          setConn((c) => (c === "connected" ? c : "connected"));
          relist();
          break;
        case "run.changed":
          setActive(bus.active());
          break;
        case "session.changed":
          relist();
          break;
        case "agents.changed":
          void loadAgents();
          break;
        case "goodbye":
          setConn((c) => (c === "connected" ? "reconnecting" : c));
          break;
      }
    });
    bus.start();
    return () => {
      off();
      bus.stop();
    };
  }, [bus, refresh, loadAgents]);

  // A bus that stays down past the grace is an outage worth saying plainly
  // (it keeps retrying; its next snapshot connects again).
  useEffect(() => {
    if (conn !== "reconnecting") return;
    const id = setTimeout(() => setConn((c) => (c === "reconnecting" ? "offline" : c)), RECONNECT_GRACE_MS);
    return () => clearTimeout(id);
  }, [conn]);

  // Only without a bus (the bus reconnects on its own): retry a backend
  // that never answered.
  const hasBus = !!bus && typeof t.watchBus === "function";
  useEffect(() => {
    if (hasBus || conn !== "offline") return;
    const id = setTimeout(() => void refresh(), OFFLINE_RETRY_MS);
    return () => clearTimeout(id);
  }, [hasBus, conn, refresh]);

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
  const recheckAgents = useCallback(() => loadAgents(true), [loadAgents]);

  return { conn, projects, sessions, active, agents, error, refresh, refreshActive, recheckAgents, putSession, dropSession };
}
