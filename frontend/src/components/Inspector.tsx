import { PanelRightClose } from "lucide-react";
import { ChangesView } from "./ChangesView";
import type { RunView } from "../store/model";
import { StatusBadge } from "./StatusBadge";
import { formatDuration } from "./ToolCard";

function brief(p: unknown): string {
  const s = JSON.stringify(p);
  return s && s !== "{}" ? (s.length > 120 ? `${s.slice(0, 120)}…` : s) : "";
}

export function Inspector({ view, onClose }: { view?: RunView; onClose(): void }) {
  return (
    <aside className="inspector" aria-label="Run inspector">
      <header className="inspector-head">
        <h2>Run</h2>
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
              {view.agent && (<><dt>Agent</dt><dd>{view.agent}</dd></>)}
              {view.model && (<><dt>Model</dt><dd className="mono">{view.model}</dd></>)}
              {view.mode && (<><dt>Mode</dt><dd>{view.mode}</dd></>)}
              <dt>Events</dt>
              <dd className="mono">{view.firstSeq}–{view.lastSeq}</dd>
              {view.startedAt !== undefined && (<><dt>Started</dt><dd>{new Date(view.startedAt * 1000).toLocaleString()}</dd></>)}
              {view.endedAt !== undefined && view.startedAt !== undefined && (
                <><dt>Took</dt><dd>{formatDuration(Math.round((view.endedAt - view.startedAt) * 1000))}</dd></>
              )}
              {view.usage && (
                <><dt>Tokens</dt><dd className="mono">{view.usage.input_tokens ?? 0} tokens in · {view.usage.output_tokens ?? 0} out</dd></>
              )}
            </dl>
          </section>
          <section>
            <h3>Changes</h3>
            <ChangesView files={view.files} />
          </section>
          <section>
            <h3>Event timeline</h3>
            <ol className="timeline mono">
              {view.timeline.slice(-300).map((e) => (
                <li key={e.seq}>
                  <span className="t-seq">{e.seq}</span>
                  <span className="t-type">{e.type}</span>
                  <span className="t-payload">{brief(e.payload)}</span>
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </aside>
  );
}
