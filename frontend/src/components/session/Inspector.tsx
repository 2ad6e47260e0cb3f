import { PanelRightClose } from "lucide-react";
import { contextLabel, costLabel, costSource, tokenLine } from "../../usage/format";
import { ChangesView } from "./ChangesView";
import type { RunView } from "../../store/model";
import { StatusBadge } from "../common/StatusBadge";
import { formatDuration } from "./ToolCard";
import { InspectorCheckpoint } from "../checkpoints/InspectorCheckpoint";

/** The run's mode by its name where the agent gave one (Copilot's ids are URLs). */
export function modeName(view: Pick<RunView, "mode" | "config">): string {
  const o = view.config?.find((c) => c.category === "mode" && c.type === "select");
  return o?.values?.find((v) => v.id === view.mode)?.name || view.mode || "";
}

function field(p: unknown, k: string): string {
  const v = p && typeof p === "object" ? (p as Record<string, unknown>)[k] : undefined;
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

/** One timeline event in words; the raw JSON stays one click away. */
export function describeEvent(type: string, p: unknown): string {
  const words: Record<string, (p: unknown) => string> = {
    "run.started": () => "Run started",
    "message.user": () => "Your message",
    "token.delta": (x) => `Text: ${field(x, "text").slice(0, 60)}`,
    "reasoning.delta": () => "Thinking",
    "reasoning.done": () => "Thought done",
    "tool.started": (x) => `Tool started: ${field(x, "title") || field(x, "name")}`,
    "tool.updated": (x) => `Tool update: ${field(x, "status") || field(x, "title") || field(x, "name")}`,
    "tool.done": (x) => `Tool done: ${field(x, "status")}`,
    "file.changed": (x) => `File changed: ${field(x, "path")}`,
    "approval.requested": (x) => `Asked to approve: ${field(x, "title")}`,
    "approval.resolved": (x) => `Approval answered: ${field(x, "choice")}`,
    "clarify.requested": (x) => `Asked: ${field(x, "question")}`,
    "clarify.resolved": () => "Question answered",
    "plan.updated": () => "Plan updated",
    "usage.updated": () => "Token usage",
    "usage.final": () => "Final token usage",
    "error": (x) => `Error: ${field(x, "message").split("\n")[0]}`,
    "done": (x) => `Ended: ${field(x, "status")}`,
  };
  const f = words[type];
  // A field the event did not carry leaves no dangling colon.
  return (f ? f(p) : type).trim().replace(/:$/, "");
}

export interface RunChoice {
  id: string;
  label: string;
}

export function Inspector({ view, onClose, choices, selected, onSelect, agentName }: {
  view?: RunView;
  onClose(): void;
  /** The name people see for an agent id (settings/addAgent agentLabel). */
  agentName?(id: string): string;
  /** The session's runs, oldest first, to pick which one to inspect. */
  choices?: RunChoice[];
  selected?: string;
  onSelect?(runId: string): void;
}) {
  return (
    <aside className="inspector" aria-label="Run inspector">
      <header className="inspector-head">
        <h2>Run</h2>
        {choices && choices.length > 1 && onSelect && (
          <select className="input run-pick" aria-label="Run to inspect" value={selected} onChange={(e) => onSelect(e.target.value)}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>{c.label}</option>
            ))}
          </select>
        )}
        <span className="spacer" />
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Hide inspector" title="Hide inspector (Ctrl+I)">
          <PanelRightClose size={16} />
        </button>
      </header>
      {!view ? (
        <p className="quiet pad">Details of the session's latest run appear here once it has one.</p>
      ) : (
        <div className="inspector-scroll">
          <section>
            <h3>Details</h3>
            <dl className="kv">
              <dt>Status</dt>
              <dd><StatusBadge status={view.status} /></dd>
              <dt>Run</dt>
              <dd className="mono selectable">{view.runId}</dd>
              {view.agent && (<><dt>Agent</dt><dd>{agentName?.(view.agent) ?? view.agent}</dd></>)}
              {view.model && (<><dt>Model</dt><dd className="mono">{view.model}</dd></>)}
              {view.mode && (<><dt>Mode</dt><dd>{modeName(view)}</dd></>)}
              <dt>Events</dt>
              <dd className="mono">{view.firstSeq}–{view.lastSeq}</dd>
              {view.startedAt !== undefined && (<><dt>Started</dt><dd>{new Date(view.startedAt * 1000).toLocaleString()}</dd></>)}
              {view.endedAt !== undefined && view.startedAt !== undefined && (
                <><dt>Took</dt><dd>{formatDuration(Math.round((view.endedAt - view.startedAt) * 1000))}</dd></>
              )}
              {tokenLine(view.usage) && (<><dt>Tokens</dt><dd className="mono">{tokenLine(view.usage)}</dd></>)}
              {view.usage?.model && view.usage.model !== view.model && (<><dt>Priced as</dt><dd className="mono">{view.usage.model}</dd></>)}
              {costLabel(view.usage) && (
                <><dt>Cost</dt><dd>{costLabel(view.usage)}{costSource(view.usage) ? ` (${costSource(view.usage)})` : ""}</dd></>
              )}
              {contextLabel(view.usage) && (<><dt>Context</dt><dd>{contextLabel(view.usage)}</dd></>)}
            </dl>
          </section>
          <section>
            <h3>Changes</h3>
            <ChangesView files={view.files} />
          </section>
          <InspectorCheckpoint runId={view.runId} ended={view.terminal} />
          <section>
            <h3>Event timeline</h3>
            <ol className="timeline mono">
              {view.timeline.slice(-300).map((e) => (
                <li key={e.seq}>
                  <details>
                    <summary>
                      <span className="t-seq">{e.seq}</span>
                      <span className="t-what">{describeEvent(e.type, e.payload)}</span>
                    </summary>
                    <pre className="t-json selectable">{JSON.stringify({ type: e.type, payload: e.payload }, null, 2)}</pre>
                  </details>
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </aside>
  );
}
