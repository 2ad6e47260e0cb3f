import { PanelLeftOpen } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { attachSourceOf, baseName } from "../components/Attachments";
import { Toaster } from "../components/copy";
import { AboutDialog, QuickSwitch, SettingsDialog, ShortcutSheet } from "../components/Dialogs";
import { Reconnecting } from "../components/Reconnecting";
import { BackendOffline, PickProject, Unauthorized } from "../components/EmptyStates";
import { NewSession } from "../components/NewSession";
import type { FolderActions } from "../components/FolderMissing";
import { SchedulesView } from "../components/Schedules";
import { DeleteSessionDialog } from "../components/SessionActions";
import { RemoveProjectDialog } from "../components/ProjectActions";
import type { SessionHandle } from "../components/SessionView";
import { Sidebar } from "../components/Sidebar";
import { jumpTarget, type JumpTarget } from "../store/jump";
import { RunStore } from "../store/runStore";
import { ApiError } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { Project, SearchHit, Session } from "../transport/types";
import { launchFolder } from "../transport/wails";
import { onWailsEvent } from "../transport/wailsRuntime";
import { droppedPaths, dropText, installGuards } from "./guard";
import { basename, requestId } from "../store/ids";
import { useTheme } from "./theme";
import { useBackend } from "./useBackend";
import { usePersisted } from "./usePersisted";
import { agentLabel } from "../settings/addAgent";
import { useFocusReport } from "./useFocusReport";
import { causeText } from "../components/bannerError";

/** Wails event with the dropped files' paths (app/wails.go EventFilesDropped). */
export const FILES_DROPPED = "files:dropped";
/** Wails event with dropped regular files' paths, to attach (app/wails.go EventFilesAttach). */
export const FILES_ATTACH = "files:attach";

type DialogName = "settings" | "about" | "shortcuts" | "quick" | null;

function isTyping(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

/** A new session's title, numbered when the project has one by that name ("… (2)"). */
export function uniqueTitle(title: string, taken: string[]): string {
  if (!taken.includes(title)) return title;
  let n = 2;
  while (taken.includes(`${title} (${n})`)) n++;
  return `${title} (${n})`;
}

// The session view (transcript, Markdown and highlighting, diffs, the
// inspector) is its own chunk: the shell's first paint does not wait for it
// to be parsed. App starts loading it once mounted, while the first lists
// are on their way (docs/ARCHITECTURE.md §Window start-up).
const loadSessionView = () => import("../components/SessionView");
const SessionView = lazy(() => loadSessionView().then((m) => ({ default: m.SessionView })));
const UsageView = lazy(() => import("../usage/UsageView"));

const NARROW = "(max-width: 860px)";

/** True below the width where the sidebar stops fitting beside the transcript. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== "undefined" && !!window.matchMedia?.(NARROW).matches);
  useEffect(() => {
    const mq = window.matchMedia?.(NARROW);
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    mq.addEventListener?.("change", on);
    return () => mq.removeEventListener?.("change", on);
  }, []);
  return narrow;
}

export function App({ transport: t }: { transport: Transport }) {
  const runs = useMemo(() => new RunStore(t), [t]);
  const b = useBackend(t, runs.bus);
  const [theme, setTheme] = useTheme(t.desktop?.setTheme);
  const [projectId, setProjectId] = usePersisted<string>("hermesdesk.project", "");
  const [sessionId, setSessionId] = usePersisted<string>("hermesdesk.session", "");
  const [width, setWidth] = usePersisted<number>("hermesdesk.sidebarWidth", 264);
  const [collapsed, setCollapsed] = usePersisted<boolean>("hermesdesk.sidebarCollapsed", false);
  const [inspector, setInspector] = usePersisted<boolean>("hermesdesk.inspector", false);
  const [seen, setSeen] = usePersisted<Record<string, string>>("hermesdesk.seen", {});
  const [dialog, setDialog] = useState<DialogName>(null);
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<string>();
  const [deleting, setDeleting] = useState<Session>();
  const [removing, setRemoving] = useState<Project>();
  const [jump, setJump] = useState<JumpTarget>();
  const [schedules, setSchedules] = useState(false);
  const [usageOpen, setUsageOpen] = useState(false);
  const dialogOpen = dialog !== null || deleting !== undefined;
  const composer = useRef<SessionHandle>(null);
  // Below the breakpoint the sidebar is an overlay over the page, closed
  // until asked for (a phone on the served UI, a narrow window).
  const narrow = useNarrow();
  useEffect(() => void loadSessionView(), []);
  const [overlay, setOverlay] = useState(false);
  const sidebarShown = narrow ? overlay : !collapsed;
  useEffect(() => setOverlay(false), [narrow]);

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

  const isUnread = useCallback((s: Session) => !!s.updated_at && !!seen[s.id] && s.updated_at > seen[s.id]!, [seen]);
  const markSeen = useCallback(
    (id: string) => {
      const s = Object.values(b.sessions).flat().find((x) => x.id === id);
      const at = s?.updated_at ?? new Date().toISOString();
      setSeen((m) => (m[id] === at ? m : { ...m, [id]: at }));
    },
    [b.sessions, setSeen],
  );

  const selectSession = useCallback(
    (s: Session, hit?: SearchHit) => {
      setProjectId(s.project_id);
      setSessionId(s.id);
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
      setAdding(false);
      setSchedules(false);
      setUsageOpen(false);
      requestAnimationFrame(() => composer.current?.focus());
    },
    [setProjectId, setSessionId],
  );

  const addProjectPath = useCallback(
    async (path: string): Promise<string | undefined> => {
      try {
        const p = await t.api.createProject(basename(path), path);
        await b.refresh();
        setProjectId(p.id);
        setSessionId("");
        setAdding(false);
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b, setProjectId, setSessionId],
  );

  const pickFolder = useCallback(async () => {
    if (!t.desktop) {
      setAdding(true);
      return;
    }
    try {
      const path = await t.desktop.pickFolder("Choose a project folder");
      if (path) {
        const e = await addProjectPath(path);
        if (e) setNote(e);
      }
    } catch {
      setAdding(true); // no native picker: fall back to typing the path
    }
  }, [t, addProjectPath]);

  // Locate… and Remove for a project whose folder is gone (FolderMissing).
  const folder = useMemo<FolderActions>(
    () => ({
      canPick: !!t.desktop,
      locate: async (proj, typed) => {
        try {
          const path = typed ?? (await t.desktop?.pickFolder(`Where is the folder of ${proj.name} now?`));
          if (!path) return "";
          await t.api.updateProject(proj.id, { workspace: path });
          await b.refresh();
          return undefined;
        } catch (e) {
          return causeText(e);
        }
      },
      remove: (proj) => setRemoving(proj),
    }),
    [t, b],
  );

  const startSession = useCallback(
    async (agent: string, text: string, attachments: string[] = []): Promise<boolean> => {
      if (!project) return false;
      try {
        const first = text.split("\n")[0] || (attachments[0] ? baseName(attachments[0]) : "");
        const title = uniqueTitle(first.slice(0, 60), (b.sessions[project.id] ?? []).map((x) => x.title ?? ""));
        const s = await t.api.createSession({ project_id: project.id, agent, title });
        await t.api.startRun({ session_id: s.id, message: text, client_request_id: requestId(), ...(attachments.length > 0 ? { attachments } : {}) });
        await b.refresh();
        selectSession(s);
        requestAnimationFrame(() => composer.current?.focus());
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.code === "folder_missing") {
          // The folder went since the list was read: the page says so (FolderMissing).
          void b.refresh();
          return false;
        }
        setNote(causeText(e));
        return false;
      }
    },
    [t, project, b, selectSession],
  );

  const renameSession = useCallback(
    async (s: Session, title: string): Promise<string | undefined> => {
      try {
        const u = await t.api.updateSession(s.id, { title });
        b.putSession(u && typeof u === "object" && u.id ? u : { ...s, title });
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  const archiveSession = useCallback(
    async (s: Session, archived: boolean) => {
      try {
        const u = await t.api.updateSession(s.id, { archived });
        b.putSession(u && typeof u === "object" && u.id ? u : { ...s, archived });
      } catch (e) {
        setNote(causeText(e));
      }
    },
    [t, b],
  );

  const deleteSession = useCallback(
    async (s: Session) => {
      await t.api.deleteSession(s.id); // a 409 (run active) reaches the dialog
      b.dropSession(s.id);
      if (s.id === sessionId) setSessionId("");
      setSeen((m) => {
        if (!(s.id in m)) return m;
        const { [s.id]: _gone, ...rest } = m;
        return rest;
      });
      void b.refresh();
    },
    [t, b, sessionId, setSessionId, setSeen],
  );

  const renameProject = useCallback(
    async (p: Project, name: string): Promise<string | undefined> => {
      try {
        await t.api.updateProject(p.id, { name });
        void b.refresh();
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  // Removing forgets the project and its sessions here; files on disk stay.
  const removeProject = useCallback(
    async (p: Project) => {
      await t.api.deleteProject(p.id); // a 409 (run active) reaches the dialog
      if (p.id === projectId) {
        setProjectId("");
        setSessionId("");
      }
      void b.refresh();
    },
    [t, b, projectId, setProjectId, setSessionId],
  );

  const stopSessionRuns = useCallback(
    async (s: Session): Promise<string | undefined> => {
      try {
        const runs = await t.api.listRuns({ status: "active", session_id: s.id });
        const rs = await Promise.all(runs.map((r) => t.api.cancel(r.id)));
        void b.refreshActive();
        const refused = rs.find((r) => !r.accepted && r.status !== "not-active");
        return refused ? refused.message || "The agent did not accept the stop." : undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  // Keyboard first: every action has a key (the sheet on ? lists them).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === "Escape" && narrow && overlay && !dialogOpen) {
        setOverlay(false);
        return;
      }
      if (!mod && e.key === "?" && !isTyping(e.target)) {
        e.preventDefault();
        setDialog("shortcuts");
        return;
      }
      // F2 renames the open session in its header (the sidebar handles its own rows).
      if (e.key === "F2" && !mod && !isTyping(e.target) && !dialogOpen) {
        e.preventDefault();
        composer.current?.rename?.();
        return;
      }
      if (!mod || e.altKey) return;
      const k = e.key.toLowerCase();
      const act: Record<string, () => void> = {
        k: () => setDialog("quick"),
        n: () => newSession(projectId || b.projects[0]?.id),
        b: () => (narrow ? setOverlay((o) => !o) : setCollapsed((c) => !c)),
        i: () => setInspector((v) => !v),
        ",": () => setDialog("settings"),
        ".": () => composer.current?.stop?.(),
      };
      const f = act[k];
      if (f) {
        e.preventDefault();
        f();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [newSession, projectId, b.projects, setCollapsed, setInspector, dialogOpen, narrow, overlay]);

  // Nothing dropped or clicked replaces the app (app/guard.ts). In the
  // Linux desktop window Go hands over the dropped paths (app/wails.go):
  // files are attached, folders go into the composer, relative to the
  // project when inside it (docs/ARCHITECTURE.md §Attachments).
  const workspace = project?.workspace;
  const attachSource = useMemo(() => attachSourceOf(t, undefined, workspace), [t, workspace]);
  useEffect(
    () =>
      installGuards(window, (names, target) => {
        // The message box attaches what is dropped on it (components/Attachments.tsx).
        if (t.kind !== "wails" && !(target instanceof Element && target.closest(".composer-box")))
          setNote(`To attach ${names.join(", ")}, drop ${names.length > 1 ? "them" : "it"} on the message box of a session.`);
      }),
    [t],
  );
  useEffect(
    () =>
      onWailsEvent(FILES_ATTACH, (payload) => {
        const paths = droppedPaths(payload);
        if (paths.length === 0) return;
        if (composer.current) {
          composer.current.attach(paths);
          // Then the person says what to do with them.
          composer.current.focus();
        } else setNote("Open a project first, then drop the files again to attach them.");
      }),
    [],
  );
  useEffect(
    () =>
      onWailsEvent(FILES_DROPPED, (payload) => {
        const paths = droppedPaths(payload);
        if (paths.length === 0) return;
        const text = dropText(paths, workspace);
        if (composer.current) composer.current.insert(text);
        else setNote(`Open a session to use ${text}`);
      }),
    [workspace],
  );

  // `hermesdesk ~/src/project` while the app runs: reshow it (Go does) and
  // open that folder as a project (an existing project for it is reused).
  useEffect(
    () =>
      t.desktop?.onSecondInstance((launch) => {
        const folder = launchFolder(launch);
        if (!folder) return void b.refresh();
        void addProjectPath(folder).then((e) => e && setNote(`Could not open ${folder}: ${e}`));
      }),
    [t, b, addProjectPath],
  );

  const connected = b.conn === "connected";
  useFocusReport(t.api, session ? session.id : "", connected);
  // The tray's run items and a notification's click open a session here.
  useEffect(
    () =>
      t.desktop?.onOpenSession?.((id) => {
        const s = Object.values(b.sessions).flat().find((x) => x.id === id);
        if (s) selectSession(s);
        else if (id === "") newSession();
        else void b.refresh();
      }),
    [t, b, selectSession, newSession],
  );
  const searchText = useCallback((q: string) => t.api.search(q), [t]);
  let main;
  if (b.conn === "connecting") {
    main = <div className="wait-line center" role="status">Connecting to Hermes Desk…</div>;
  } else if (b.conn === "offline") {
    main = <BackendOffline inWails={t.kind === "wails"} onRetry={() => void b.refresh()} />;
  } else if (b.conn === "unauthorized") {
    main = <Unauthorized />;
  } else if (usageOpen && !adding) {
    main = (
      <Suspense fallback={null}>
        <UsageView api={t.api} />
      </Suspense>
    );
  } else if (schedules && !adding) {
    main = (
      <SchedulesView
        t={t}
        bus={runs.bus}
        projects={b.projects}
        agents={b.agents ?? []}
        defaultProject={projectId}
        onOpenSession={(sid, pid) => {
          setProjectId(pid);
          setSessionId(sid);
          setSchedules(false);
          void b.refresh();
        }}
      />
    );
  } else if (adding || b.projects.length === 0) {
    main = <PickProject canPickFolder={!!t.desktop && !adding} onPick={() => void pickFolder()} onAddPath={addProjectPath} />;
  } else if (session) {
    main = (
      <Suspense fallback={null}>
        <SessionView
          key={session.id}
          ref={composer}
          t={t}
          runs={runs}
          session={session}
          project={project}
          inspectorOpen={inspector}
          onInspector={setInspector}
          onChanged={() => void b.refresh()}
          onSeen={markSeen}
          onRename={(title) => renameSession(session, title)}
          onNewSession={() => newSession(project?.id ?? session.project_id)}
          folder={folder}
          onOpenSettings={() => setDialog("settings")}
          target={jump?.sessionId === session.id ? jump : undefined}
          agentName={(id) => agentLabel(b.agents, id)}
        />
      </Suspense>
    );
  } else if (project) {
    main = <NewSession ref={composer} project={project} agents={b.agents} onStart={startSession} attach={attachSource} folder={folder} takeKeyboard={t.kind === "wails"} onRecheck={() => void b.refresh()} hasSessions={Object.values(b.sessions).some((l) => l.length > 0)} />;
  }

  return (
    <div className="app">
      {narrow && overlay && <button type="button" className="sidebar-backdrop" aria-label="Close the sidebar" tabIndex={-1} onClick={() => setOverlay(false)} />}
      {sidebarShown && (
        <Sidebar
          overlay={narrow}
          projects={b.projects}
          sessions={b.sessions}
          active={b.active}
          selectedProject={projectId}
          selectedSession={session?.id}
          isUnread={isUnread}
          onSelectProject={(id) => {
            setOverlay(false);
            setProjectId(id);
            setSessionId("");
            setAdding(false);
            setSchedules(false);
            setUsageOpen(false);
          }}
          onSelectSession={(s) => {
            setOverlay(false);
            selectSession(s);
          }}
          onRename={renameSession}
          onArchive={archiveSession}
          onDelete={setDeleting}
          onRenameProject={renameProject}
          onRemoveProject={setRemoving}
          onNewSession={(pid) => {
            setOverlay(false);
            newSession(pid);
          }}
          onAddProject={() => {
            setOverlay(false);
            void pickFolder();
          }}
          onSettings={() => {
            setOverlay(false);
            setDialog("settings");
          }}
          onSchedules={() => {
            setOverlay(false);
            setSchedules(true);
            setUsageOpen(false);
          }}
          schedulesOpen={schedules}
          onUsage={() => {
            setOverlay(false);
            setUsageOpen(true);
          }}
          usageOpen={usageOpen}
          onCollapse={() => (narrow ? setOverlay(false) : setCollapsed(true))}
          width={width}
          onWidth={(w) => setWidth(Math.max(200, Math.min(440, Math.round(w))))}
          connected={connected}
        />
      )}
      <main className="main">
        {!sidebarShown && (
          <button type="button" className="icon-btn expand-sidebar" onClick={() => (narrow ? setOverlay(true) : setCollapsed(false))} aria-label="Show sidebar" title="Show sidebar (Ctrl+B)">
            <PanelLeftOpen size={16} />
          </button>
        )}
        <Reconnecting lost={b.conn === "reconnecting"} />
        {note && (
          <div className="banner" role="alert">
            {note}
            <button type="button" className="btn btn-ghost" onClick={() => setNote(undefined)}>Dismiss</button>
          </div>
        )}
        {main}
      </main>
      <Toaster />
      {dialog === "settings" && (
        <SettingsDialog
          theme={theme}
          onTheme={setTheme}
          desktop={t.desktop}
          api={connected ? t.api : undefined}
          onAbout={() => setDialog("about")}
          onClose={() => setDialog(null)}
          activeRuns={() => runs.bus.active().length}
        />
      )}
      {deleting && (
        <DeleteSessionDialog
          key={deleting.id}
          session={deleting}
          onDelete={() => deleteSession(deleting)}
          onStop={() => stopSessionRuns(deleting)}
          onClose={() => setDeleting(undefined)}
        />
      )}
      {removing && (
        <RemoveProjectDialog
          key={removing.id}
          project={removing}
          sessions={(b.sessions[removing.id] ?? []).length}
          onRemove={() => removeProject(removing)}
          onClose={() => setRemoving(undefined)}
        />
      )}
      {dialog === "about" && <AboutDialog desktop={t.desktop} onClose={() => setDialog(null)} />}
      {dialog === "shortcuts" && <ShortcutSheet onClose={() => setDialog(null)} />}
      {dialog === "quick" && <QuickSwitch projects={b.projects} sessions={b.sessions} agentName={(id) => agentLabel(b.agents, id)} onPick={selectSession} onClose={() => setDialog(null)} search={connected ? searchText : undefined} />}
    </div>
  );
}
