import { lazy, Suspense, useMemo, type RefObject } from "react";
import { attachSourceOf } from "../components/composer/Attachments";
import { BackendOffline, Unauthorized } from "../components/common/EmptyStates";
import type { FolderActions } from "../components/common/FolderMissing";
import { NewSession } from "../components/composer/NewSession";
import { SchedulesView } from "../components/schedules/Schedules";
import { NewProjectWhere } from "../components/hosts/NewProjectWhere";
import { RemoteSession } from "../components/hosts/RemoteSession";
import type { SessionHandle } from "../components/session/SessionView";
import type { RunStore } from "../store/runStore";
import { agentLabel } from "../settings/addAgent";
import type { WorkspaceWhere } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { Session } from "../transport/types";
import type { Backend } from "./useBackend";
import type { Layout } from "./useLayout";
import type { Navigation } from "./useNavigation";

// The session view (transcript, Markdown and highlighting, diffs, the
// inspector) is its own chunk: the shell's first paint does not wait for it
// to be parsed. App starts loading it once mounted, while the first lists
// are on their way (docs/ARCHITECTURE.md §Window start-up).
export const loadSessionView = () => import("../components/session/SessionView");
const SessionView = lazy(() => loadSessionView().then((m) => ({ default: m.SessionView })));
// The Usage view too, once the app is idle: a lazy view that suspends on
// its click is revealed by React 19 only after its Suspense throttle (up to
// 300 ms, what `make bench-usage` measured); a loaded module renders at once
// (docs/ARCHITECTURE.md §Usage).
let usageModule: typeof import("../usage/UsageView") | undefined;
export const loadUsageView = () => import("../usage/UsageView").then((m) => (usageModule = m));
const UsageViewLazy = lazy(loadUsageView);

export interface MainPaneProps {
  t: Transport;
  runs: RunStore;
  b: Backend;
  nav: Navigation;
  layout: Layout;
  composer: RefObject<SessionHandle | null>;
  folder: FolderActions;
  markSeen(id: string): void;
  /** native: the folder picker itself, not the page that offers hosts too. */
  pickFolder(native?: boolean): Promise<void>;
  addProjectPath(path: string): Promise<string | undefined>;
  startSession(agent: string, text: string, attachments?: string[], where?: WorkspaceWhere): Promise<boolean>;
  renameSession(s: Session, title: string): Promise<string | undefined>;
}

/** The page beside the sidebar: the connection's state, or what the person opened. */
export function MainPane(p: MainPaneProps) {
  const { t, runs, b, nav, composer, folder } = p;
  const { project, session, adding } = nav;
  const workspace = project?.workspace;
  const attachSource = useMemo(() => attachSourceOf(t, undefined, workspace), [t, workspace]);
  if (b.conn === "connecting") return <div className="wait-line center" role="status">Connecting to Hermes Desk…</div>;
  if (b.conn === "offline") return <BackendOffline inWails={t.kind === "wails"} onRetry={() => void b.refresh()} />;
  if (b.conn === "unauthorized") return <Unauthorized />;
  if (nav.usageOpen && !adding) {
    const UsageView = usageModule?.default ?? UsageViewLazy;
    return (
      <Suspense fallback={null}>
        <UsageView api={t.api} />
      </Suspense>
    );
  }
  if (nav.schedules && !adding) {
    return (
      <SchedulesView
        t={t}
        bus={runs.bus}
        projects={b.projects}
        agents={b.agents ?? []}
        defaultProject={nav.projectId}
        onOpenSession={(sid, pid) => {
          nav.openScheduledSession(sid, pid);
          void b.refresh();
        }}
      />
    );
  }
  if (nav.remote && !adding) {
    // A host's project or session: the host's transport, chosen here once (components/hosts/RemoteSession.tsx).
    return (
      <RemoteSession
        ref={composer}
        t={t}
        runs={runs}
        remote={nav.remote}
        localSessions={Object.values(b.sessions).flat()}
        inspectorOpen={p.layout.inspector}
        onInspector={p.layout.setInspector}
        onSeen={p.markSeen}
        onOpen={nav.openRemote}
        onOpenSettings={() => nav.setDialog("settings")}
        agentName={(id) => agentLabel(b.agents, id)}
      />
    );
  }
  if (adding || b.projects.length === 0) {
    // This computer or a host (components/hosts/NewProjectWhere.tsx); the native picker only here.
    return <NewProjectWhere t={t} bus={runs.bus} canPickFolder={!!t.desktop && (!adding || runs.bus.hosts().length > 0)} onPick={() => void p.pickFolder(true)} onAddPath={p.addProjectPath} onOpen={nav.openRemote} />;
  }
  if (session) {
    return (
      <Suspense fallback={null}>
        <SessionView
          key={session.id}
          ref={composer}
          t={t}
          runs={runs}
          session={session}
          project={project}
          inspectorOpen={p.layout.inspector}
          onInspector={p.layout.setInspector}
          onChanged={() => void b.refresh()}
          onSeen={p.markSeen}
          onRename={(title) => p.renameSession(session, title)}
          onNewSession={() => nav.newSession(project?.id ?? session.project_id)}
          folder={folder}
          onOpenSettings={() => nav.setDialog("settings")}
          target={nav.jump?.sessionId === session.id ? nav.jump : undefined}
          agentName={(id) => agentLabel(b.agents, id)}
          onOpenSession={(s) => {
            void b.refresh();
            nav.selectSession(s);
          }}
        />
      </Suspense>
    );
  }
  if (project) {
    return <NewSession ref={composer} project={project} agents={b.agents} onStart={p.startSession} attach={attachSource} folder={folder} takeKeyboard={t.kind === "wails"} onRecheck={() => void b.refresh()} hasSessions={Object.values(b.sessions).some((l) => l.length > 0)} />;
  }
  return null;
}
