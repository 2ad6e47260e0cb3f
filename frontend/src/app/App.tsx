// The shell (docs/ARCHITECTURE.md §Window): the sidebar, the page beside
// it and the dialogs, wired from hooks that each own one concern — the
// backend's lists (useBackend), where the person is (useNavigation), the
// layout (useLayout), projects and sessions (useProjects,
// useSessionActions), keys (useKeyboard) and the desktop's events
// (useDesktopEvents).
import { PanelLeftOpen } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Toaster } from "../components/common/copy";
import { Reconnecting } from "../components/common/Reconnecting";
import { HistoryOffer } from "../components/history/HistoryOffer";
import type { SessionHandle } from "../components/session/SessionView";
import { RunStore } from "../store/runStore";
import type { Transport } from "../transport/transport";
import type { Project, Session } from "../transport/types";
import { loadSessionView, loadUsageView, MainPane } from "./MainPane";
import { ShellDialogs } from "./ShellDialogs";
import { ShellSidebar } from "./ShellSidebar";
import { HostsSection } from "../components/hosts/HostsSection";
import { findHostSession } from "../hosts/remote";
import { useTheme } from "./theme";
import { useBackend } from "./useBackend";
import { useDesktopEvents } from "./useDesktopEvents";
import { useFocusReport } from "./useFocusReport";
import { useKeyboard } from "./useKeyboard";
import { useLayout } from "./useLayout";
import { useNavigation } from "./useNavigation";
import { useProjects } from "./useProjects";
import { useSeen } from "./useSeen";
import { useSessionActions } from "./useSessionActions";
import { useWorkspaces, WorkspacesContext } from "../components/workspaces/WorkspacesContext";

export { FILES_ATTACH, FILES_DROPPED } from "./useDesktopEvents";
export { uniqueTitle } from "./useSessionActions";

export function App({ transport: t }: { transport: Transport }) {
  const runs = useMemo(() => new RunStore(t), [t]);
  const b = useBackend(t, runs.bus);
  const workspaces = useWorkspaces(t.api, runs.bus, b.projects);
  const [theme, setTheme] = useTheme(t.desktop?.setTheme);
  const composer = useRef<SessionHandle>(null);
  const nav = useNavigation(b, composer);
  const layout = useLayout();
  const seen = useSeen(b.sessions);
  const [note, setNote] = useState<string>();
  const [deleting, setDeleting] = useState<Session>();
  const [removing, setRemoving] = useState<Project>();
  // The Usage view after it, not competing with the first lists (MainPane).
  // Loading ahead is only a head start: a chunk that fails here is
  // fetched again, and its failure shown, when its view opens.
  useEffect(() => void loadSessionView().then(loadUsageView).catch(() => undefined), []);

  const hostsKnown = useCallback(() => runs.bus.hosts().length > 0, [runs]);
  const projects = useProjects(t, b, nav, { note: setNote, askRemove: setRemoving, hosts: hostsKnown });
  const sessions = useSessionActions(t, b, nav, { composer, note: setNote, forgetSeen: seen.forget });
  const { newSession } = nav;
  const newSessionHere = useCallback(() => newSession(), [newSession]);
  const { openRemote } = nav;
  const openHostSession = useCallback(
    (id: string) => void findHostSession(t, runs.bus.hosts(), id).then((r) => r && openRemote(r)),
    [t, runs, openRemote],
  );
  useKeyboard({
    layout,
    dialogOpen: nav.dialog !== null || deleting !== undefined,
    composer,
    setDialog: nav.setDialog,
    newSession,
    newSessionIn: nav.projectId || b.projects[0]?.id,
  });
  useDesktopEvents(t, b, {
    composer,
    workspace: nav.project?.workspace,
    note: setNote,
    addProjectPath: projects.addProjectPath,
    selectSession: nav.selectSession,
    newSession: newSessionHere,
    openHostSession,
  });
  const connected = b.conn === "connected";
  // A host's session is told too: its runs' notifications come from this core's bus.
  useFocusReport(t.api, nav.remote ? (nav.remote.session?.id ?? "") : nav.session ? nav.session.id : "", connected);
  const searchText = useCallback((q: string) => t.api.search(q), [t]);

  return (
    <WorkspacesContext.Provider value={workspaces}>
    <div className="app">
      {layout.narrow && layout.overlay && <button type="button" className="sidebar-backdrop" aria-label="Close the sidebar" tabIndex={-1} onClick={layout.closeOverlay} />}
      {layout.sidebarShown && (
        <ShellSidebar
          b={b}
          nav={nav}
          layout={layout}
          isUnread={seen.isUnread}
          onRename={sessions.renameSession}
          onArchive={sessions.archiveSession}
          onDelete={setDeleting}
          onRenameProject={projects.renameProject}
          onRemoveProject={setRemoving}
          onAddProject={() => void projects.pickFolder()}
          hosts={<HostsSection bus={runs.bus} t={t} open={nav.remote} onOpen={nav.openRemote} />}
        />
      )}
      <main className="main">
        {!layout.sidebarShown && (
          <button type="button" className="icon-btn expand-sidebar" onClick={layout.showSidebar} aria-label="Show sidebar" title="Show sidebar (Ctrl+B)">
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
        {/* The agents' histories, offered until answered (§History). */}
        <HistoryOffer api={t.api} enabled={connected} onSettings={() => nav.setDialog("settings")} />
        <MainPane
          t={t}
          runs={runs}
          b={b}
          nav={nav}
          layout={layout}
          composer={composer}
          folder={projects.folder}
          markSeen={seen.markSeen}
          pickFolder={projects.pickFolder}
          addProjectPath={projects.addProjectPath}
          startSession={sessions.startSession}
          renameSession={sessions.renameSession}
        />
      </main>
      <Toaster />
      <ShellDialogs
        t={t}
        runs={runs}
        b={b}
        nav={nav}
        theme={theme}
        onTheme={setTheme}
        deleting={deleting}
        onDelete={sessions.deleteSession}
        onStop={sessions.stopSessionRuns}
        onCloseDelete={() => setDeleting(undefined)}
        removing={removing}
        onRemove={projects.removeProject}
        onCloseRemove={() => setRemoving(undefined)}
        search={searchText}
      />
    </div>
    </WorkspacesContext.Provider>
  );
}
