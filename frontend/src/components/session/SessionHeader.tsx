import { PanelRight, Server, Square } from "lucide-react";
import { useRef } from "react";
import type { Transport } from "../../transport/transport";
import type { Project, Session } from "../../transport/types";
import { ExportMenu } from "./ExportMenu";
import { ModelPicker } from "./ModelPicker";
import { InlineTitle } from "../sidebar/SessionActions";
import { SessionSettings } from "./SessionSettings";
import { controlNote, errText, queueNote } from "./sessionText";
import { StatusBadge } from "../common/StatusBadge";
import { ResumeNow } from "../../usage/ResumeNow";
import { SessionQuota } from "../../usage/SessionQuota";
import type { WatchMessage } from "../../transport/types";
import type { AgentChoices } from "./useAgentChoices";
import type { RunStatusView } from "./useRunStatus";
import { SessionWorkspace } from "../workspaces/SessionWorkspace";
import { SourceBadge } from "../history/SourceBadge";

export interface SessionHeaderProps {
  t: Transport;
  session: Session;
  project?: Project;
  run: RunStatusView;
  choices: AgentChoices;
  /** The title as shown (invisible characters revealed) and as edited. */
  title: string;
  rawTitle: string;
  model?: string;
  /** The model the session keeps for its next run (GET /api/sessions/{id}). */
  keptModel?: string;
  agentLabel: string;
  continuable: boolean;
  editing: boolean;
  setEditing(on: boolean): void;
  onRename(title: string): Promise<string | undefined>;
  /** Shows what went wrong (Continue refused). */
  setErr(e: unknown): void;
  onModelDialog(): void;
  stop(force?: boolean): void;
  waiting: number;
  saveExport: Parameters<typeof ExportMenu>[0]["save"];
  inspectorOpen: boolean;
  onInspector(open: boolean): void;
  load(): Promise<void>;
  onChanged(): void;
  /** The watch bus: the quota line re-reads when a run of this session changes status. */
  bus?: { subscribe(cb: (m: WatchMessage) => void): () => void };
}

/** The session's header: its title, agent and model, settings, status, Stop, export and the inspector's switch. */
export function SessionHeader(p: SessionHeaderProps) {
  const { t, session, run, choices, agentLabel, model } = p;
  const { imported, active, status, latestId } = run;
  const titleBtn = useRef<HTMLButtonElement>(null);
  const continueHere = async () => {
    try {
      await t.api.continueSession(session.id);
      p.setErr(undefined);
    } catch (e) {
      p.setErr(errText(e));
    }
  };
  const chip = (
    <span className="chip" title="Agent and model">
      {agentLabel}
      {model && <span className="chip-model mono">{model}</span>}
    </span>
  );
  return (
    <header className="main-head">
      <div className="head-title">
        {p.editing ? (
          <InlineTitle
            value={p.rawTitle}
            label="Session title"
            className="in-header"
            onSave={p.onRename}
            onDone={() => {
              p.setEditing(false);
              requestAnimationFrame(() => titleBtn.current?.focus());
            }}
          />
        ) : (
          <h1 className="ellipsis">
            <button ref={titleBtn} type="button" className="title-btn ellipsis" title={`${p.title} — click or F2 to rename`} aria-label={`${p.title}, rename (F2)`} onClick={() => p.setEditing(true)}>
              {p.title}
            </button>
          </h1>
        )}
        {!p.editing && p.project && <span className="quiet ellipsis head-project" title={p.project.workspace}>{p.project.name}</span>}
        {session.archived && <span className="chip chip-archived">Archived</span>}
        {/* A host's session (transport/host.ts): where it runs, in words. */}
        {t.host && (
          <span className="chip chip-host" title={`This session runs on ${t.hostName || t.host}`}>
            <Server size={12} aria-hidden /> on {t.hostName || t.host}
          </span>
        )}
      </div>
      {!p.editing && <SessionWorkspace session={session} hasRuns={!!latestId} onMoved={p.onChanged} />}
      {imported ? (
        chip
      ) : choices.models.length > 0 ? (
        // The picker beside it names and switches the model: the chip
        // names only the agent, so the model is not said twice.
        <span className="chip chip-agent" title="Agent">{agentLabel}</span>
      ) : active ? (
        <button type="button" className="chip chip-btn" title="Switch model" aria-label={`${agentLabel}, model ${model || "default"}: switch model`} onClick={p.onModelDialog}>
          {agentLabel}
          {model && <span className="chip-model mono">{model}</span>}
        </button>
      ) : (
        chip
      )}
      {!imported && <ModelPicker
        models={choices.models}
        note={choices.reportedModels.length === 0 ? choices.served.listed?.message : undefined}
        onRetry={choices.served.retry}
        current={active ? model : p.keptModel || session.model || model || choices.defaultModel.model}
        onPick={async (m) => {
          try {
            if (active && latestId) return controlNote(await t.api.setModel(latestId, m));
            await t.api.updateSession(session.id, { model: m });
            await p.load();
            p.onChanged();
            return undefined;
          } catch (e) {
            return errText(e);
          }
        }}
      />}
      {!imported && <SessionSettings
        options={choices.settings}
        agentDefault={choices.agentDefault}
        onSet={async (id, value) => {
          try {
            if (choices.agentUp && latestId) return controlNote(await t.api.setConfig(latestId, id, value));
            // Between runs the session keeps the choice for its next run.
            await t.api.updateSession(session.id, { config: { [id]: value } });
            await p.load();
            return undefined;
          } catch (e) {
            return errText(e);
          }
        }}
      />}
      {imported ? (
        <>
          <SourceBadge from={session.imported_from!} note="a read-only record" />
          {p.continuable && (
            // The agent's own history: its next message resumes it in that agent (docs/ARCHITECTURE.md §History).
            <button type="button" className="btn btn-secondary" onClick={() => void continueHere()} title={`Go on with this conversation in ${agentLabel}, under its own id`}>
              Continue in {agentLabel}
            </button>
          )}
        </>
      ) : (
        status !== "idle" && <StatusBadge status={status} />
      )}
      {!imported && <SessionQuota sessionId={session.id} agent={session.agent} api={t.api} bus={p.bus} />}
      <span className="spacer" />
      {active && status === "parked" && latestId && <ResumeNow runId={latestId} resume={(id) => t.api.resume(id)} onProblem={p.setErr} />}
      {active && status === "cancelling" ? (
        <button type="button" className="btn btn-danger btn-stop" onClick={() => p.stop(true)} title="Stop the agent at once, without waiting for it to finish up">
          <Square size={14} aria-hidden /> Force stop
        </button>
      ) : active && (
        <button type="button" className="btn btn-secondary btn-stop" onClick={() => p.stop()} title={`Stop the run (Ctrl+.)${p.waiting > 0 ? ` — ${queueNote(p.waiting)}` : ""}`}>
          <Square size={14} aria-hidden /> Stop
        </button>
      )}
      <ExportMenu api={t.api} sessionId={session.id} runId={latestId} save={p.saveExport} />
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
  );
}
