import { PanelRight, Square } from "lucide-react";
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { requestId } from "../store/ids";
import type { JumpTarget } from "../store/jump";
import type { RunStore } from "../store/runStore";
import type { RunView } from "../store/model";
import { ApiError } from "../transport/api";
import { bannerError } from "./bannerError";
import { ErrorBanner } from "./ErrorBanner";
import { revealRun } from "./revealed";
import { SESSION_TAIL, withTail } from "./sessionTail";
import type { Transport } from "../transport/transport";
import type { ControlResult, Project, Session, SessionDetail } from "../transport/types";
import { isTerminalStatus } from "../transport/types";
import type { BlockActions } from "./BlockView";
import { Composer, type ComposerHandle } from "./Composer";
import { attachSourceOf } from "./Attachments";
import { ModelDialog } from "./Dialogs";
import { Inspector } from "./Inspector";
import { InlineTitle } from "./SessionActions";
import { StatusBadge } from "./StatusBadge";
import { Transcript, type Item } from "./Transcript";
import { transcriptItems } from "./transcriptItems";
import { sessionRuns } from "./activeRun";
import { useJump } from "./useJump";
import { revealInvisible } from "../text/invisible";
import { buildProductCommands, latestCommands } from "./slashCommands";
import { ExportMenu, exportSaver } from "./ExportMenu";
import { latestModels, ModelPicker, pickerModels, useAgentModels } from "./ModelPicker";
import { defaultModels, headerSettings, latestConfig, SessionSettings, useAgentConfig } from "./SessionSettings";
import { stoppingText, useForceCountdown } from "./stopping";
import { queueWait } from "./queueWait";
import { RunLogDialog } from "./RunLogDialog";
import { FolderMissing, type FolderActions } from "./FolderMissing";

/**
 * What the app asks of the open session: its composer, and the commands
 * its keyboard shortcuts give (Ctrl+. stops the run, F2 renames). A new
 * session's view has only the composer.
 */
export interface SessionHandle extends ComposerHandle {
  stop?(): void;
  rename?(): void;
}

/** Runs of a session followed event by event; earlier turns show their saved text. */
const ATTACH_LAST = 10;

export function controlNote(r: ControlResult): string | undefined {
  switch (r.status) {
    case "accepted":
      return undefined;
    case "not-active":
      return r.message || "Nothing is waiting for this answer any more.";
    case "conflict":
      return r.message || "A different answer was already given.";
    case "unsupported":
      return r.message || "This agent cannot do that.";
    case "expired":
      return r.message || "The question timed out.";
  }
}

/** A failure as the one sentence a card's note or a banner shows (bannerError.ts). */
function errText(err: unknown): string {
  return bannerError(err).lead;
}

/** What Stop does to the follow-ups queued behind the run. */
export function queueNote(n: number): string {
  return n === 1
    ? "your queued message still runs next; cancel it below if you don't want it"
    : `your ${n} queued messages still run next; cancel them below if you don't want them`;
}

/** What the latest run waits for, in words (a spinner alone is not an answer). */
export function waitText(v: RunView | undefined, status: string, agent: string, forceLeft?: number, queued?: string): string | undefined {
  if (isTerminalStatus(status)) return undefined;
  switch (status) {
    case "queued":
      return queued ?? "Queued — starts when the previous run in this session ends";
    case "awaiting_approval":
      return "Waiting for your approval above";
    case "awaiting_clarify":
      return "Waiting for your answer above";
    case "cancelling":
      return stoppingText(agent, forceLeft);
    case "paused":
      return `${agent} paused`;
  }
  if (v?.progress?.message) return v.progress.message;
  const last = v?.blocks[v.blocks.length - 1];
  if (!last || last.kind === "user") return `Waiting for ${agent} to respond…`;
  if (last.kind === "tool" && last.status === "running") return `Waiting for ${last.name} to finish…`;
  if (last.kind === "text" && !last.done) return undefined; // the text itself shows progress
  return `${agent} is working…`;
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
  /** The name people see for an agent id (settings/addAgent agentLabel, the one lookup). */
  agentName?(id: string): string;
}

export const SessionView = forwardRef<SessionHandle, SessionViewProps>(function SessionView(p, composerRef) {
  const { t, runs, session } = p;
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  // A plain note (string) or what was thrown, shown by ErrorBanner.
  const [err, setErr] = useState<unknown>();
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
  const titleBtn = useRef<HTMLButtonElement>(null);
  const inner = useRef<ComposerHandle>(null);
  // Stop as of the latest render (it reads the run it stops).
  const stopRef = useRef(() => {});
  const newSessionRef = useRef(p.onNewSession);
  newSessionRef.current = p.onNewSession;
  // Set in the commit that shows the title, so an F2 pressed right after
  // it appears is never lost.
  useImperativeHandle(
    composerRef,
    () => ({
      focus: () => inner.current?.focus(),
      insert: (x: string) => inner.current?.insert(x),
      attach: (paths: string[]) => inner.current?.attach(paths),
      stop: () => stopRef.current(),
      rename: () => setEditing(true),
    }),
    [],
  );

  // After the first read, only the session's last messages are read again
  // (sessionTail.ts): a long session's every run no longer re-reads it all.
  const held = useRef<SessionDetail | null>(null);
  held.current = detail;
  const load = useCallback(async () => {
    try {
      // A tail that cannot be read (or does not meet what is held) is
      // settled by reading the whole session, which says why if it fails.
      const fresh = held.current?.id === session.id ? await t.api.getSession(session.id, SESSION_TAIL).catch(() => null) : null;
      setDetail((fresh && withTail(held.current, fresh, SESSION_TAIL)) ?? (await t.api.getSession(session.id)));
      setErr(undefined);
    } catch (e) {
      setErr(e);
    }
  }, [t, session.id]);

  useEffect(() => {
    setDetail(null);
    void load();
  }, [load]);

  // A run that appears in this session — started here, by the CLI, the API,
  // another tab or a schedule — shows at once: the watch bus says so and
  // the transcript is read again, which attaches and streams it.
  const known = useRef(new Set<string>());
  known.current = new Set((detail?.messages ?? []).flatMap((m) => (m.run_id ? [m.run_id] : [])));
  useEffect(
    () =>
      runs.bus.subscribe((m) => {
        const states = m.type === "snapshot" ? (m.snapshot?.runs ?? []) : m.type === "run.changed" && m.run ? [m.run] : [];
        if (states.some((r) => r.session_id === session.id && !known.current.has(r.run_id))) void load();
      }),
    [runs, session.id, load],
  );

  const jump = useJump(runs, detail, p.target);
  // The older turns followed, the last REVEAL_MAX scrolled to (revealed.ts).
  const [revealedList, setRevealed] = useState<readonly string[]>([]);
  const revealed = useMemo(() => new Set(revealedList), [revealedList]);
  const reveal = useCallback((runId: string) => setRevealed((r) => revealRun(r, runId)), []);
  const attached = useMemo(() => {
    const ms = (detail?.messages ?? []).filter((m) => m.role === "assistant" && m.run_id);
    // Older turns are followed once they scroll into view (revealed), so
    // their tool cards, thoughts, plans and footers come back on demand.
    const tail = ms.filter((m, i) => i >= ms.length - ATTACH_LAST || revealed.has(m.run_id!));
    // A search hit in an older turn follows that run too, so it shows as events.
    const extra = jump.extraRun && !tail.some((m) => m.run_id === jump.extraRun) ? ms.find((m) => m.run_id === jump.extraRun) : undefined;
    return (extra ? [extra, ...tail] : tail).map((m) => ({ id: m.run_id!, lastSeq: m.run?.last_seq }));
  }, [detail, jump.extraRun, revealed]);
  const attachedKey = attached.map((a) => a.id).join(",");
  // Attach and detach only when the set of runs changes (attachedKey), not
  // when a reload of the session brings the same runs with newer seqs.
  const attachedNow = useRef(attached);
  attachedNow.current = attached;

  useEffect(() => {
    const list = attachedNow.current;
    for (const a of list) void runs.attach(a.id, { sessionId: session.id, lastSeq: a.lastSeq });
    return () => list.forEach((a) => runs.detach(a.id));
  }, [runs, attachedKey, session.id]);

  // Re-render when one of this session's runs changed shape (a block
  // added or closed, its status, a prompt), at most once per flushed frame.
  // Text streaming into the open block re-renders only that row
  // (Transcript's live rows; docs/ARCHITECTURE.md §Session view).
  const subscribe = useCallback(
    (cb: () => void) => {
      const ids = new Set(attachedKey.split(","));
      return runs.subscribeAll((id) => ids.has(id) && cb());
    },
    [runs, attachedKey],
  );
  const snapshot = useCallback(() => attached.reduce((n, a) => n + runs.shapeVersion(a.id), 0), [runs, attached]);
  const tick = useSyncExternalStore(subscribe, snapshot);

  // The header, Stop and the inspector follow the run that is working or
  // waiting for the person; follow-ups queued behind it show as queued.
  const liveStatus = useCallback((id: string) => {
    const v = runs.view(id);
    return v && v.status !== "unknown" ? v.status : undefined;
  }, [runs]);
  const { activeId: latestId, latestId: newestId, queued } = useMemo(
    () => sessionRuns(detail?.messages ?? [], liveStatus),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [detail, tick, liveStatus],
  );
  const latestMsg = useMemo(() => [...(detail?.messages ?? [])].reverse().find((m) => m.run_id === latestId && m.run) ?? (detail?.messages ?? []).find((m) => m.run_id === latestId), [detail, latestId]);
  const latest = latestId ? runs.view(latestId) : undefined;
  // A run the journal holds as ended is ended, whatever its events left
  // unsaid (an older import without a done): its status, not the fold's.
  const status = latestMsg?.run?.terminal
    ? latestMsg.run.status
    : latest && latest.status !== "unknown" ? latest.status : latestMsg?.run?.status ?? "idle";
  const forceLeft = useForceCountdown(status === "cancelling");
  // Why a queued run waits, from the watch bus: re-read whenever a run
  // anywhere moves while this one is queued (a slot may have freed).
  const [busTick, setBusTick] = useState(0);
  const isQueued = status === "queued";
  useEffect(() => (isQueued ? runs.bus.subscribe(() => setBusTick((n) => n + 1)) : undefined), [runs, isQueued]);
  const queuedWhy = useMemo(
    () => (isQueued && latestId ? queueWait(runs.bus.active(), latestId) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- busTick: the bus moved
    [runs, isQueued, latestId, busTick],
  );
  // An imported session is a record: whatever its runs' events say, nothing
  // in it is live — no Stop, no status, no answers (docs/ARCHITECTURE.md
  // §Bundles).
  const imported = !!session.imported_from;
  const active = !imported && !!latestId && status !== "idle" && !isTerminalStatus(status);
  const agent = latest?.agent || session.agent;
  // The id picks models and commands; people read the agent's own name.
  const agentLabel = p.agentName?.(agent) ?? agent;
  // A session from an agent's own history (not a bundle) can go on there.
  const continuable = imported && !!session.native_session_id;
  const continueHere = async () => {
    try {
      await t.api.continueSession(session.id);
      setErr(undefined);
    } catch (e) {
      setErr(errText(e));
    }
  };
  // Read on every render (ticks included): a few runs' already-folded lists.
  const agentCommands = latestCommands(runs, attached.map((a) => a.id));
  const served = useAgentModels(t.api, agent, runs.bus);
  const reportedModels = latestModels(runs, attached.map((a) => a.id));
  // Before the first run: the agent's settings (and models) for a new
  // session as last reported on this machine (§Session config options).
  const agentDefaults = useAgentConfig(t.api, agent, runs.bus);
  // A queued run has no agent to ask yet: it starts with the session's
  // kept choices, so they are set on the session as between runs.
  const agentUp = active && status !== "queued";
  const shownSettings = headerSettings(latestConfig(runs, attached.map((a) => a.id)), detail?.config ?? session.config, agentDefaults.options, agentUp);
  const settings = shownSettings.options;
  const defaultModel = defaultModels(agentDefaults);
  const agentModels = pickerModels(reportedModels, served.listed, defaultModel.models);
  const productCommands = useMemo(
    () => buildProductCommands({ agent, active, stop: () => stopRef.current(), model: () => setModelOpen(true), newSession: () => newSessionRef.current?.() }),
    [agent, active],
  );
  const runChoices = useMemo(() => {
    const out: { id: string; label: string }[] = [];
    let n = 0;
    let asked = "";
    for (const m of detail?.messages ?? []) {
      if (m.role === "user") asked = m.content;
      if (!m.run_id || out.some((c) => c.id === m.run_id)) continue;
      n++;
      const words = asked.split("\n")[0]!.slice(0, 40);
      out.push({ id: m.run_id, label: words ? `Turn ${n}: ${words}` : `Turn ${n}` });
    }
    return out;
  }, [detail]);
  const queuedSet = useMemo(() => new Set(imported ? [] : queued.filter((id) => id !== latestId || status === "queued")), [queued, latestId, status, imported]);

  // A run that ends may start a queued one and retitle the session.
  const latestTerminal = latest?.terminal ?? false;
  const onChanged = useRef(p.onChanged);
  onChanged.current = p.onChanged;
  useEffect(() => {
    if (latestTerminal) {
      void load();
      onChanged.current();
    }
  }, [latestTerminal, load]);

  const onSeen = p.onSeen;
  useEffect(() => onSeen(session.id), [tick, session.id, onSeen]);

  // One item object per block object, so unchanged rows keep their identity
  // and only the streaming row re-renders.
  const itemCache = useRef(new WeakMap<object, Item>());
  const items = useMemo<Item[]>(() => {
    void tick; // the runs' folded blocks moved: rebuild from them
    const w = active ? waitText(latest, status, agentLabel, forceLeft, queuedWhy) : undefined;
    return transcriptItems({
      messages: detail?.messages ?? [],
      runs,
      queued: queuedSet,
      wait: w && latestId ? { runId: latestId, text: w } : undefined,
      cache: itemCache.current,
      readOnly: imported,
    });
  }, [detail, tick, active, status, agentLabel, queuedSet, latest, latestId, runs, forceLeft, queuedWhy, imported]);

  // A queued follow-up is a run that has not started: cancelling it drops it.
  const dropQueued = async (runId: string): Promise<boolean> => {
    try {
      const note = controlNote(await t.api.cancel(runId));
      if (note) setErr(note);
      await load();
      p.onChanged();
      return !note;
    } catch (e) {
      setErr(e);
      return false;
    }
  };
  const dropRef = useRef(dropQueued);
  dropRef.current = dropQueued;
  // An error card's fixes, as of the latest render (errorFix.ts).
  const project = p.project;
  const fixRef = useRef<{ settings?(): void; locate?(): void }>({});
  fixRef.current = {
    settings: p.onOpenSettings,
    locate: project && p.folder ? () => void p.folder!.locate(project) : undefined,
  };
  // Retry sends the failed turn's message again, as a new turn.
  const retryRef = useRef(async (_runId: string) => {});
  retryRef.current = async (runId: string) => {
    const m = (detail?.messages ?? []).find((x) => x.role === "user" && x.run_id === runId);
    if (m) await sendRef.current(m.content, m.attachments);
    else setErr("The message of that turn is not available to send again.");
  };

  const actions = useMemo<BlockActions>(
    () => ({
      approve: async (runId, approvalId, optionId) => {
        try {
          return controlNote(await t.api.approve(runId, approvalId, optionId));
        } catch (e) {
          return errText(e);
        }
      },
      clarify: async (runId, clarifyId, answer) => {
        try {
          return controlNote(await t.api.clarify(runId, clarifyId, answer));
        } catch (e) {
          return errText(e);
        }
      },
      retry: (runId) => void retryRef.current(runId),
      openLog: (runId) => setLogOf(runId),
      cancelQueued: (runId) => void dropRef.current(runId),
      openSettings: () => fixRef.current.settings?.(),
      locateFolder: () => fixRef.current.locate?.(),
      editQueued: (runId, text) =>
        void dropRef.current(runId).then((ok) => {
          if (ok) inner.current?.insert(text);
        }),
    }),
    [t],
  );

  // While the agent asks a question, the composer answers it rather than
  // queueing a follow-up nobody reads until the question times out.
  const asking = useMemo(() => {
    if (imported || !latest || latest.terminal || status !== "awaiting_clarify") return undefined;
    const b = [...latest.blocks].reverse().find((x) => x.kind === "clarify");
    return b && b.kind === "clarify" && b.answer === undefined ? b : undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest, tick, status, imported]);
  const approving = !imported && status === "awaiting_approval";

  const sendRef = useRef(async (_t: string, _a?: string[]) => false);
  const send = async (text: string, attachments: string[] = []): Promise<boolean> => {
    // An answer or a queued follow-up is text only: keep the chips for a new message.
    if (attachments.length > 0 && ((asking && latestId) || (active && newestId))) {
      setErr("Attachments go with a new message: send it when the agent is free.");
      return false;
    }
    if (asking && latestId) {
      const note = await actions.clarify(latestId, asking.clarifyId, text);
      if (note) setErr(note);
      return !note;
    }
    try {
      if (active && newestId) await t.api.queue(newestId, text, requestId());
      else
        await t.api.startRun({
          session_id: session.id,
          message: text,
          client_request_id: requestId(),
          ...(attachments.length > 0 ? { attachments } : {}),
        });
      await load();
      setPin((n) => n + 1); // show the message just sent, wherever the view was
      p.onChanged();
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === "folder_missing") {
        // The folder went since the list was read: the banner says it.
        setFolderGone(true);
        p.onChanged();
        return false;
      }
      setErr(e);
      return false;
    }
  };

  sendRef.current = send;
  const waiting = [...queuedSet].filter((id) => id !== latestId).length;
  const stop = async (force = false) => {
    if (!latestId) return;
    try {
      const r = await t.api.cancel(latestId, force);
      const note = controlNote(r);
      if (note) setErr(note);
      else if (waiting > 0) setStopNote({ runId: latestId, text: `Stopping the run: ${queueNote(waiting)}.` });
    } catch (e) {
      setErr(e);
    }
  };

  stopRef.current = () => void stop();
  const info = stopNote && runs.view(stopNote.runId)?.terminal === false ? stopNote.text : undefined;

  // A person's title wins; the agent's live title only names an untitled
  // session (the journal applies title.updated the same way).
  const title = revealInvisible(session.title || latest?.title || "Untitled session");
  // The working run's model, else the one picked for the next run, else the
  // one the last run used: the chip must not flip to the bare agent name
  // between runs or while a run's first events load.
  const model = latest?.model || session.model || lastRunModel(runs, attached.map((a) => a.id)) || lastModelOf(detail?.messages);
  return (
    <div className="session">
      <div className="main-col">
        <header className="main-head">
          <div className="head-title">
            {editing ? (
              <InlineTitle
                value={session.title || latest?.title || ""}
                label="Session title"
                className="in-header"
                onSave={p.onRename}
                onDone={() => {
                  setEditing(false);
                  requestAnimationFrame(() => titleBtn.current?.focus());
                }}
              />
            ) : (
              <h1 className="ellipsis">
                <button ref={titleBtn} type="button" className="title-btn ellipsis" title={`${title} — click or F2 to rename`} aria-label={`${title}, rename (F2)`} onClick={() => setEditing(true)}>
                  {title}
                </button>
              </h1>
            )}
            {!editing && p.project && <span className="quiet ellipsis head-project" title={p.project.workspace}>{p.project.name}</span>}
            {session.archived && <span className="chip chip-archived">Archived</span>}
          </div>
          {imported ? (
            <span className="chip" title="Agent and model">
              {agentLabel}
              {model && <span className="chip-model mono">{model}</span>}
            </span>
          ) : agentModels.length > 0 ? (
            // The picker beside it names and switches the model: the chip
            // names only the agent, so the model is not said twice.
            <span className="chip chip-agent" title="Agent">{agentLabel}</span>
          ) : active ? (
            <button type="button" className="chip chip-btn" title="Switch model" aria-label={`${agentLabel}, model ${model || "default"}: switch model`} onClick={() => setModelOpen(true)}>
              {agentLabel}
              {model && <span className="chip-model mono">{model}</span>}
            </button>
          ) : (
            <span className="chip" title="Agent and model">
              {agentLabel}
              {model && <span className="chip-model mono">{model}</span>}
            </span>
          )}
          {!imported && <ModelPicker
            models={agentModels}
            note={reportedModels.length === 0 ? served.listed?.message : undefined}
            onRetry={served.retry}
            current={active ? model : detail?.model || session.model || model || defaultModel.model}
            onPick={async (m) => {
              try {
                if (active && latestId) return controlNote(await t.api.setModel(latestId, m));
                await t.api.updateSession(session.id, { model: m });
                await load();
                p.onChanged();
                return undefined;
              } catch (e) {
                return errText(e);
              }
            }}
          />}
          {!imported && <SessionSettings
            options={settings}
            agentDefault={shownSettings.agentDefault}
            onSet={async (id, value) => {
              try {
                if (agentUp && latestId) return controlNote(await t.api.setConfig(latestId, id, value));
                // Between runs the session keeps the choice for its next run.
                await t.api.updateSession(session.id, { config: { [id]: value } });
                await load();
                return undefined;
              } catch (e) {
                return errText(e);
              }
            }}
          />}
          {imported ? (
            <>
              <span className="chip chip-imported" title={`Imported from ${session.imported_from}: a read-only record`}>Imported</span>
              {continuable && (
                // The agent's own history: its next message resumes it in that agent (docs/ARCHITECTURE.md §History).
                <button type="button" className="btn" onClick={() => void continueHere()} title={`Go on with this conversation in ${agentLabel}, under its own id`}>
                  Continue in {agentLabel}
                </button>
              )}
            </>
          ) : (
            status !== "idle" && <StatusBadge status={status} />
          )}
          <span className="spacer" />
          {active && status === "cancelling" ? (
            <button type="button" className="btn btn-danger btn-stop" onClick={() => void stop(true)} title="Stop the agent at once, without waiting for it to finish up">
              <Square size={14} aria-hidden /> Force stop
            </button>
          ) : active && (
            <button type="button" className="btn btn-secondary btn-stop" onClick={() => void stop()} title={`Stop the run (Ctrl+.)${waiting > 0 ? ` — ${queueNote(waiting)}` : ""}`}>
              <Square size={14} aria-hidden /> Stop
            </button>
          )}
          <ExportMenu api={t.api} sessionId={session.id} runId={latestId} save={saveExport} />
          <button
            type="button"
            className={`icon-btn${p.inspectorOpen ? " on" : ""}`}
            onClick={() => p.onInspector(!p.inspectorOpen)}
            aria-pressed={p.inspectorOpen}
            aria-label="Inspector"
            title="Inspector (Ctrl+I)"
          >
            <PanelRight size={16} />
          </button>
        </header>
        {err !== undefined && (
          <ErrorBanner
            err={err}
            fixes={{ retry: () => void load(), settings: fixRef.current.settings, locate: fixRef.current.locate }}
            onDismiss={() => setErr(undefined)}
          />
        )}
        {info && (
          <div className="jump-note" role="status">
            {info}
            <button type="button" className="btn btn-ghost" onClick={() => setStopNote(undefined)}>Dismiss</button>
          </div>
        )}
        {jump.note && (
          <div className="jump-note" role="status">
            {jump.note}
            <button type="button" className="btn btn-ghost" onClick={jump.dismissNote}>Dismiss</button>
          </div>
        )}
        {(p.project?.folder_missing || folderGone) && p.project && p.folder && <FolderMissing project={p.project} actions={p.folder} />}
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
          <Transcript items={items} live={runs} actions={actions} onReveal={reveal} pin={pin} onOlder={(id) => void runs.loadOlder(id)} focus={jump.focus} />
        )}
        <Composer
          ref={inner}
          onSend={send}
          attach={attachSource}
          takeKeyboard={t.kind === "wails"}
          queueing={active && !asking}
          commands={agentCommands}
          productCommands={productCommands}
          disabled={!!session.imported_from || ((!!p.project?.folder_missing || folderGone) && !active)}
          placeholder={session.imported_from ? `Imported from ${session.imported_from}: read-only. ${continuable ? "Continue it above" : "Start a new session"} to go on.` : (p.project?.folder_missing || folderGone) && !active ? "The project's folder is missing: locate it above to go on." : asking ? "Answer the agent's question…" : undefined}
          hint={asking ? "answers the question above" : approving ? "queues it; Esc, then a digit answers the approval above" : undefined}
        />
      </div>
      {p.inspectorOpen && (
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
      )}
      {logOf && <RunLogDialog api={t.api} runId={logOf} onClose={() => setLogOf(undefined)} />}
      {modelOpen && latestId && (
        <ModelDialog
          current={model}
          onClose={() => setModelOpen(false)}
          onSet={async (m) => {
            try {
              return controlNote(await t.api.setModel(latestId, m));
            } catch (e) {
              return errText(e);
            }
          }}
        />
      )}
    </div>
  );
});

/** The inspector follows its run event by event (the timeline), not only its shape. */
function LiveInspector({ runs, runId, ...rest }: { runs: RunStore; runId?: string } & Omit<Parameters<typeof Inspector>[0], "view">) {
  const subscribe = useCallback((cb: () => void) => (runId ? runs.subscribe(runId, cb) : () => {}), [runs, runId]);
  useSyncExternalStore(subscribe, () => (runId ? runs.version(runId) : 0));
  return <Inspector view={runId ? runs.view(runId) : undefined} {...rest} />;
}

/** The model the newest run that reported one ran on (its run.started). */
function lastRunModel(runs: Pick<RunStore, "view">, runIds: string[]): string | undefined {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const m = runs.view(runIds[i]!)?.model;
    if (m) return m;
  }
  return undefined;
}

/** The model of the newest run the journal knows of in these messages. */
function lastModelOf(ms: { run?: { model?: string } }[] | undefined): string | undefined {
  for (let i = (ms?.length ?? 0) - 1; i >= 0; i--) {
    const m = ms![i]!.run?.model;
    if (m) return m;
  }
  return undefined;
}
