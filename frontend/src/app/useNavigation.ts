import { useCallback, useEffect, useState, type RefObject } from "react";
import type { SessionHandle } from "../components/session/SessionView";
import { jumpTarget, type JumpTarget } from "../store/jump";
import type { RemoteOpen } from "../hosts/remote";
import type { SearchHit, Session } from "../transport/types";
import type { Backend } from "./useBackend";
import { usePersisted } from "./usePersisted";

export type DialogName = "settings" | "about" | "shortcuts" | "quick" | null;

/**
 * Where the person is: the selected project and session (kept across
 * starts), the open dialog, and which page the main pane shows (a new
 * session, adding a project, Schedules, Usage).
 */
export function useNavigation(b: Backend, composer: RefObject<SessionHandle | null>) {
  const [projectId, setProjectId] = usePersisted<string>("hermesdesk.project", "");
  const [sessionId, setSessionId] = usePersisted<string>("hermesdesk.session", "");
  const [dialog, setDialog] = useState<DialogName>(null);
  const [adding, setAdding] = useState(false);
  const [jump, setJump] = useState<JumpTarget>();
  const [schedules, setSchedules] = useState(false);
  const [usageOpen, setUsageOpen] = useState(false);
  // A host's project or session (components/hosts/RemoteSession.tsx); any
  // local choice leaves it. Not kept across starts: the host may be gone.
  const [remote, setRemote] = useState<RemoteOpen>();

  const project = b.projects.find((p) => p.id === projectId);
  const session: Session | undefined = project ? (b.sessions[project.id] ?? []).find((s) => s.id === sessionId) : undefined;

  // Keep a valid selection as projects come and go.
  useEffect(() => {
    if (b.conn !== "connected") return;
    if (!project && b.projects.length > 0) {
      setProjectId(b.projects[0]!.id);
      setSessionId("");
    }
  }, [b.conn, b.projects, project, setProjectId, setSessionId]);

  const selectSession = useCallback(
    (s: Session, hit?: SearchHit) => {
      setProjectId(s.project_id);
      setSessionId(s.id);
      setRemote(undefined);
      setAdding(false);
      setSchedules(false);
      setUsageOpen(false);
      setDialog(null);
      // A text hit opens the transcript at the match; anything else at its tail.
      setJump(hit ? jumpTarget({ ...hit, session_id: s.id }) : undefined);
    },
    [setProjectId, setSessionId],
  );

  const newSession = useCallback(
    (pid?: string) => {
      if (pid) setProjectId(pid);
      setSessionId("");
      setRemote(undefined);
      setAdding(false);
      setSchedules(false);
      setUsageOpen(false);
      requestAnimationFrame(() => composer.current?.focus());
    },
    [setProjectId, setSessionId, composer],
  );

  /** A project's folder was added or picked: open it on a new session. */
  const openProject = useCallback(
    (id: string) => {
      setProjectId(id);
      setSessionId("");
      setRemote(undefined);
      setAdding(false);
    },
    [setProjectId, setSessionId],
  );
  /** Opens a host's session, or a new session in a host's project. */
  const openRemote = useCallback((r: RemoteOpen) => {
    setRemote(r);
    setAdding(false);
    setSchedules(false);
    setUsageOpen(false);
    setDialog(null);
  }, []);
  // The open session or project went away.
  const clearSession = useCallback(() => setSessionId(""), [setSessionId]);
  const clearProject = useCallback(() => {
    setProjectId("");
    setSessionId("");
  }, [setProjectId, setSessionId]);

  return {
    projectId,
    sessionId,
    project,
    session,
    dialog,
    setDialog,
    adding,
    setAdding,
    jump,
    schedules,
    usageOpen,
    selectSession,
    newSession,
    openProject,
    remote,
    openRemote,
    selectProject: (id: string) => {
      setProjectId(id);
      setSessionId("");
      setRemote(undefined);
      setAdding(false);
      setSchedules(false);
      setUsageOpen(false);
    },
    clearSession,
    clearProject,
    openSchedules: () => {
      setSchedules(true);
      setUsageOpen(false);
    },
    openUsage: () => setUsageOpen(true),
    /** A schedule's run opens its session (Schedules' history). */
    openScheduledSession: (sid: string, pid: string) => {
      setProjectId(pid);
      setSessionId(sid);
      setRemote(undefined);
      setSchedules(false);
    },
  };
}

export type Navigation = ReturnType<typeof useNavigation>;
