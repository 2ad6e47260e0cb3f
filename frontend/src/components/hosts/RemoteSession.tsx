// A host's session in the main pane (docs/ARCHITECTURE.md §Remote cores,
// "The window"). The one seam: the session view gets the transport bound
// to the host (transport/host.ts forHost) and a run store over it that
// shares this window's bus — so the transcript, composer, approvals,
// clarify, diffs and checkpoints all go through /api/hosts/{host}/…
// without knowing. The run events come from the bus's doorbells (the
// desktop window) or the proxied events stream (a browser).
// While the host cannot be reached the local copy (backend/remote/copy.go)
// is shown read-only, with a sentence saying so; the runs go on there.
import { forwardRef, lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { causeText } from "../common/bannerError";
import { attachSourceOf } from "../composer/Attachments";
import type { ComposerHandle } from "../composer/Composer";
import { NewSession } from "../composer/NewSession";
import { useWorkspaces, WorkspacesContext } from "../workspaces/WorkspacesContext";
import type { SessionHandle } from "../session/SessionView";
import { hostLabel, localCopyOf, unreachableSentence, type RemoteOpen } from "../../hosts/remote";
import { requestId } from "../../store/ids";
import { RunStore } from "../../store/runStore";
import type { WatchBus } from "../../store/bus";
import { forHost } from "../../transport/host";
import type { Transport } from "../../transport/transport";
import type { WorkspaceWhere } from "../../transport/api";
import type { AgentInfo, Session } from "../../transport/types";

const SessionView = lazy(() => import("../session/SessionView").then((m) => ({ default: m.SessionView })));

export interface RemoteSessionProps {
  /** This window's transport and run store (the bus is shared). */
  t: Transport;
  runs: RunStore;
  remote: RemoteOpen;
  /** This computer's sessions: where a host's copies are. */
  localSessions: Session[];
  inspectorOpen: boolean;
  onInspector(open: boolean): void;
  onSeen(sessionId: string): void;
  onOpen(r: RemoteOpen): void;
  onOpenSettings?(): void;
  agentName?(id: string): string;
}

/** Whether the bus says the host answers (a host it does not know yet: assumed to). */
export function useHostReachable(bus: WatchBus, host: string): boolean {
  const read = useCallback(() => bus.hosts().find((h) => h.host === host)?.reachable ?? true, [bus, host]);
  const [reachable, setReachable] = useState(read);
  useEffect(() => {
    setReachable(read());
    return bus.subscribe((m) => {
      if (m.type === "snapshot" || m.type === "host.changed") setReachable(read());
    });
  }, [bus, read]);
  return reachable;
}

/** How the person calls the host (hostLabel), as the bus knows it now. */
export function useHostLabel(bus: WatchBus, host: string): string {
  const read = useCallback(() => hostLabel(host, bus.hosts()), [bus, host]);
  const [label, setLabel] = useState(read);
  useEffect(() => {
    setLabel(read());
    return bus.subscribe((m) => {
      if (m.type === "snapshot" || m.type === "host.changed") setLabel(read());
    });
  }, [bus, read]);
  return label;
}

export const RemoteSession = forwardRef<SessionHandle, RemoteSessionProps>(function RemoteSession(p, ref) {
  const { t, runs, remote } = p;
  const { host, project, session } = remote;
  const reachable = useHostReachable(runs.bus, host);
  const label = useHostLabel(runs.bus, host);
  const ht = useMemo(() => forHost(t, host, label), [t, host, label]);
  const hostRuns = useMemo(() => new RunStore(ht, { bus: runs.bus }), [ht, runs.bus]);
  // The host's worktrees, read through its API and kept by its workspace.changed (tagged with it on this bus).
  const projects = useMemo(() => [project], [project]);
  const workspaces = useWorkspaces(ht.api, runs.bus, projects, host);
  useEffect(() => () => hostRuns.detachAll(), [hostRuns]);

  if (!reachable) {
    const copy = session ? localCopyOf(host, session, p.localSessions) : undefined;
    return (
      <div className="remote-pane">
        <p className="banner remote-unreachable" role="status">
          {session ? unreachableSentence(label, copy) : `${label} can't be reached; its runs go on there. A new session can start there once it answers again.`}
        </p>
        {copy && (
          <Suspense fallback={null}>
            <SessionView key={`copy:${copy.id}`} ref={ref} t={t} runs={runs} session={copy} inspectorOpen={p.inspectorOpen} onInspector={p.onInspector} onChanged={() => undefined} onSeen={p.onSeen} onRename={async () => "A copy cannot be renamed."} agentName={p.agentName} />
          </Suspense>
        )}
      </div>
    );
  }
  return (
    <WorkspacesContext.Provider value={workspaces}>
      {session ? (
        <Suspense fallback={null}>
          <SessionView
            key={`${host}:${session.id}`}
            ref={ref}
            t={ht}
            runs={hostRuns}
            session={session}
            project={project}
            inspectorOpen={p.inspectorOpen}
            onInspector={p.onInspector}
            onChanged={() => undefined}
            onSeen={p.onSeen}
            onRename={async (title) => {
              try {
                const s = await ht.api.updateSession(session.id, { title });
                p.onOpen({ host, project, session: s?.id ? s : { ...session, title } });
                return undefined;
              } catch (e) {
                return causeText(e);
              }
            }}
            onNewSession={() => p.onOpen({ host, project })}
            onOpenSettings={p.onOpenSettings}
            agentName={p.agentName}
            onOpenSession={(s) => p.onOpen({ host, project, session: s })}
          />
        </Suspense>
      ) : (
        <NewRemoteSession ref={ref} t={ht} remote={remote} onOpen={p.onOpen} />
      )}
    </WorkspacesContext.Provider>
  );
});

/** A new session in a host's project: the host's agents, its API; then it opens like any. */
const NewRemoteSession = forwardRef<ComposerHandle, { t: Transport; remote: RemoteOpen; onOpen(r: RemoteOpen): void }>(function NewRemoteSession({ t, remote, onOpen }, ref) {
  const [agents, setAgents] = useState<AgentInfo[] | null>(null);
  const [note, setNote] = useState<string>();
  const load = useCallback(() => t.api.agents().then(setAgents, (e: unknown) => (setAgents([]), setNote(causeText(e)))), [t]);
  useEffect(() => void load(), [load]);
  const attach = useMemo(() => attachSourceOf(t), [t]);
  const { host, project } = remote;
  const start = useCallback(
    async (agent: string, text: string, attachments: string[] = [], where?: WorkspaceWhere) => {
      try {
        const title = (text.split("\n")[0] ?? "").slice(0, 60);
        // where: the checkout or a new worktree on the host, as the choice above the box says.
        const s = await t.api.createSession({ project_id: project.id, agent, title, ...where });
        await t.api.startRun({ session_id: s.id, message: text, client_request_id: requestId(), ...(attachments.length > 0 ? { attachments } : {}) });
        onOpen({ host, project, session: s });
        return true;
      } catch (e) {
        setNote(causeText(e));
        return false;
      }
    },
    [t, host, project, onOpen],
  );
  return (
    <>
      {note && (
        <div className="banner" role="alert">
          {note}
        </div>
      )}
      <NewSession ref={ref} project={project} agents={agents} onStart={start} attach={attach} onRecheck={() => void load()} hasSessions takeKeyboard={t.kind === "wails"} />
    </>
  );
});
