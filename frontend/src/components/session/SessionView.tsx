import { forwardRef, useEffect, useMemo, useRef, useState } from "react";
import type { JumpTarget } from "../../store/jump";
import type { RunStore } from "../../store/runStore";
import { revealInvisible } from "../../text/invisible";
import type { Transport } from "../../transport/transport";
import type { Project, Session } from "../../transport/types";
import { attachSourceOf } from "../composer/Attachments";
import { Composer, type ComposerHandle } from "../composer/Composer";
import { ErrorBanner } from "../common/ErrorBanner";
import { exportSaver } from "./ExportMenu";
import { FolderMissing, type FolderActions } from "../common/FolderMissing";
import { SessionHeader } from "./SessionHeader";
import { LiveInspector, Note, RunDialogs, useSessionHandle } from "./SessionParts";
import { lastModelOf, lastRunModel, turnChoices } from "./sessionText";
import { buildProductCommands, latestCommands } from "../composer/slashCommands";
import { Transcript } from "./Transcript";
import { useAgentChoices } from "./useAgentChoices";
import { useReloadWhenEnded, useTranscriptItems } from "./useTranscriptItems";
import { useFollowedRuns } from "./useFollowedRuns";
import { useRunStatus } from "./useRunStatus";
import { useSessionCommands } from "./useSessionCommands";
import { useSessionDetail } from "./useSessionDetail";
import { CheckpointsContext, useCheckpointRecords } from "../checkpoints/CheckpointsContext";

export { controlNote, queueNote, waitText } from "./sessionText";

/**
 * What the app asks of the open session: its composer, and the commands
 * its keyboard shortcuts give (Ctrl+. stops the run, F2 renames). A new
 * session's view has only the composer.
 */
export interface SessionHandle extends ComposerHandle {
  stop?(): void;
  rename?(): void;
}

export interface SessionViewProps {
  t: Transport;
  runs: RunStore;
  session: Session;
  project?: Project;
  inspectorOpen: boolean;
  onInspector(open: boolean): void;
  onChanged(): void;
  onSeen(sessionId: string): void;
  /** Renames the session; resolves an error message when refused. */
  onRename(title: string): Promise<string | undefined>;
  /** A search hit to open the transcript at instead of its tail. */
  target?: JumpTarget;
  /** Opens a new session in this project (/new). */
  onNewSession?(): void;
  /** Locate… and Remove for a project whose folder is gone (FolderMissing). */
  folder?: FolderActions;
  /** Opens Settings: an error's fix (install or set up the agent). */
  onOpenSettings?(): void;
  /** Opens another session (a fork made from a turn's footer). */
  onOpenSession?(s: Session): void;
  /** The name people see for an agent id (settings/addAgent agentLabel, the one lookup). */
  agentName?(id: string): string;
}

// The open session (docs/ARCHITECTURE.md §Session view): the header, the
// transcript of its followed runs, the composer and the inspector, wired
// from hooks that each own one concern — the journal's transcript
// (useSessionDetail), the runs followed live (useFollowedRuns), where the
// work stands (useRunStatus), the header's choices (useAgentChoices) and
// what the person does (useSessionCommands).
export const SessionView = forwardRef<SessionHandle, SessionViewProps>(function SessionView(p, composerRef) {
  const { t, runs, session } = p;
  const [modelOpen, setModelOpen] = useState(false);
  const workspace = p.project?.workspace;
  const saveExport = useMemo(() => exportSaver(t), [t]);
  const attachSource = useMemo(() => attachSourceOf(t, undefined, workspace), [t, workspace]);
  const [editing, setEditing] = useState(false);
  // The note Stop leaves about queued follow-ups, tied to the run it
  // stops: it is only true while that run still ends (issue 23.10).
  const [stopNote, setStopNote] = useState<{ runId: string; text: string }>();
  const [logOf, setLogOf] = useState<string>();
  // The backend refused a message: the project's folder is gone (23.12).
  const [folderGone, setFolderGone] = useState(false);
  useEffect(() => setFolderGone(false), [workspace]); // located: try again
  const [pin, setPin] = useState(0);
  // The run the inspector shows: the active one unless the person picked another.
  const [inspected, setInspected] = useState<string>();
  const newSessionRef = useRef(p.onNewSession);
  newSessionRef.current = p.onNewSession;
  const { inner, stopRef } = useSessionHandle(composerRef, setEditing);

  const { detail, err, setErr, load } = useSessionDetail(t, runs, session.id);
  const { jump, reveal, ids, tick } = useFollowedRuns(runs, detail, p.target, session.id);
  const run = useRunStatus(runs, session, detail, tick);
  const { latestId, latest, active, imported, agent } = run;
  // The id picks models and commands; people read the agent's own name.
  const agentLabel = p.agentName?.(agent) ?? agent;
  // A session from an agent's own history (not a bundle) can go on there.
  const continuable = imported && !!session.native_session_id;
  // Read on every render (ticks included): a few runs' already-folded lists.
  const agentCommands = latestCommands(runs, ids);
  const choices = useAgentChoices(t, runs, run, ids, detail, session);
  const productCommands = useMemo(
    () => buildProductCommands({ agent, active, stop: () => stopRef.current(), model: () => setModelOpen(true), newSession: () => newSessionRef.current?.() }),
    [agent, active, stopRef],
  );
  const runChoices = useMemo(() => turnChoices(detail?.messages ?? []), [detail]);

  useReloadWhenEnded(latest?.terminal ?? false, load, p.onChanged);

  const onSeen = p.onSeen;
  useEffect(() => onSeen(session.id), [tick, session.id, onSeen]);

  const items = useTranscriptItems(runs, detail, run, tick, agentLabel);
  // Undo, redo and restore on the footers and in the inspector (docs/ARCHITECTURE.md §Checkpoints).
  const checkpoints = useCheckpointRecords(t.api, runs.bus, session.id, p.onOpenSession);

  const cmd = useSessionCommands(t, {
    sessionId: session.id,
    detail,
    run,
    composer: inner,
    project: p.project,
    folder: p.folder,
    load,
    onChanged: p.onChanged,
    onOpenSettings: p.onOpenSettings,
    setErr,
    folderGone: () => setFolderGone(true),
    pinned: () => setPin((n) => n + 1),
    stopNote: setStopNote,
    openLog: setLogOf,
  });
  stopRef.current = () => void cmd.stop();
  const info = stopNote && runs.view(stopNote.runId)?.terminal === false ? stopNote.text : undefined;
  const missing = !!p.project?.folder_missing || folderGone;

  // A person's title wins; the agent's live title only names an untitled
  // session (the journal applies title.updated the same way).
  const title = revealInvisible(session.title || latest?.title || "Untitled session");
  // The working run's model, else the one picked for the next run, else the
  // one the last run used: the chip must not flip to the bare agent name
  // between runs or while a run's first events load.
  const model = latest?.model || session.model || lastRunModel(runs, ids) || lastModelOf(detail?.messages);
  return (
    <div className="session">
      <div className="main-col">
        <SessionHeader
          t={t}
          session={session}
          project={p.project}
          run={run}
          choices={choices}
          title={title}
          rawTitle={session.title || latest?.title || ""}
          model={model}
          keptModel={detail?.model}
          agentLabel={agentLabel}
          continuable={continuable}
          editing={editing}
          setEditing={setEditing}
          onRename={p.onRename}
          setErr={setErr}
          onModelDialog={() => setModelOpen(true)}
          stop={(force) => void cmd.stop(force)}
          waiting={cmd.waiting}
          saveExport={saveExport}
          inspectorOpen={p.inspectorOpen}
          onInspector={p.onInspector}
          load={load}
          onChanged={p.onChanged}
          bus={runs.bus}
        />
        {err !== undefined && (
          <ErrorBanner err={err} fixes={{ retry: () => void load(), settings: cmd.fixes.current.settings, locate: cmd.fixes.current.locate }} onDismiss={() => setErr(undefined)} />
        )}
        {info && <Note text={info} onDismiss={() => setStopNote(undefined)} />}
        {jump.note && <Note text={jump.note} onDismiss={jump.dismissNote} />}
        {missing && p.project && p.folder && <FolderMissing project={p.project} actions={p.folder} />}
        {latestId && runs.error(latestId) !== undefined && (
          <ErrorBanner err={runs.error(latestId)} doing="Cannot follow this run" fixes={{ retry: () => void runs.refollow(latestId) }} />
        )}
        {detail === null && err === undefined ? (
          <div className="wait-line center" role="status">Loading the session…</div>
        ) : items.length === 0 ? (
          <div className="session-empty">
            <p>Say what you want {agentLabel} to do in <strong>{p.project?.name ?? "this project"}</strong>.</p>
          </div>
        ) : (
          <CheckpointsContext.Provider value={checkpoints}>
            <Transcript items={items} live={runs} actions={cmd.actions} onReveal={reveal} pin={pin} onOlder={(id) => void runs.loadOlder(id)} focus={jump.focus} />
          </CheckpointsContext.Provider>
        )}
        <Composer
          ref={inner}
          onSend={cmd.send}
          attach={attachSource}
          takeKeyboard={t.kind === "wails"}
          queueing={active && !run.asking}
          commands={agentCommands}
          productCommands={productCommands}
          disabled={imported || (missing && !active)}
          placeholder={imported ? `Imported from ${session.imported_from}: read-only. ${continuable ? "Continue it above" : "Start a new session"} to go on.` : missing && !active ? "The project's folder is missing: locate it above to go on." : run.asking ? "Answer the agent's question…" : undefined}
          hint={run.asking ? "answers the question above" : run.approving ? "queues it; Esc, then a digit answers the approval above" : undefined}
        />
      </div>
      {p.inspectorOpen && (
        <CheckpointsContext.Provider value={checkpoints}>
        <LiveInspector
          agentName={p.agentName}
          runs={runs}
          runId={inspected ?? latestId}
          onClose={() => p.onInspector(false)}
          choices={runChoices}
          selected={inspected ?? latestId}
          onSelect={(id) => {
            setInspected(id);
            reveal(id);
          }}
        />
        </CheckpointsContext.Provider>
      )}
      <RunDialogs t={t} logOf={logOf} closeLog={() => setLogOf(undefined)} modelOf={modelOpen ? latestId : undefined} model={model} closeModel={() => setModelOpen(false)} />
    </div>
  );
});
