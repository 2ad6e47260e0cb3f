// The session header's model picker, where the agent reports its models:
// during a run (ACP session models, Codex's model/list) or, without a run,
// from the agent's server (an OpenAI-compatible server's /models, asked by
// the backend and cached like agent health; see
// docs/ARCHITECTURE.md §Model picker). While a run is going the choice switches that run (and is kept
// for the session); between runs it is stored on the session, so the next
// run — a fresh agent too — starts on it.
import { useCallback, useEffect, useRef, useState } from "react";
import type { RunStore } from "../../store/runStore";
import { revealInvisible } from "../../text/invisible";
import type { AgentModels, WatchMessage } from "../../transport/types";

export type ModelOption = { id: string; name?: string; description?: string };

/** The models last reported in the session's runs (newest first). */
export function latestModels(runs: Pick<RunStore, "view">, runIds: string[]): ModelOption[] {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const m = runs.view(runIds[i]!)?.models;
    if (m && m.length > 0) return m;
  }
  return [];
}

/** The picker's models: what the agent reported in a run wins over its server's list. */
export function pickerModels(reported: ModelOption[], listed?: AgentModels, remembered: ModelOption[] = []): ModelOption[] {
  if (reported.length > 0) return reported;
  if (listed?.models.length) return listed.models;
  // What a new session of the agent last reported on this machine
  // (docs/ARCHITECTURE.md §Session config options).
  return remembered;
}

/**
 * The agent's models from its server (GET /api/agents/{name}/models), asked
 * once per agent shown and again when the agents changed (their settings,
 * on the watch bus; the backend has dropped its cached list then); retry
 * asks the server itself again. A failed request leaves the list empty: the
 * picker then shows only what runs report.
 */
export function useAgentModels(
  api: { agentModels(agent: string, refresh?: boolean): Promise<AgentModels> },
  agent: string,
  bus?: { subscribe(cb: (m: WatchMessage) => void): () => void },
) {
  const [state, setState] = useState<{ agent: string; v?: AgentModels }>({ agent });
  const [tick, setTick] = useState(0);
  const refresh = useRef(false);
  useEffect(() => bus?.subscribe((m) => m.type === "agents.changed" && setTick((n) => n + 1)), [bus]);
  useEffect(() => {
    let live = true;
    const again = refresh.current;
    refresh.current = false;
    api.agentModels(agent, again).then(
      (v) => live && setState({ agent, v }),
      () => live && setState({ agent }),
    );
    return () => {
      live = false;
    };
  }, [api, agent, tick]);
  const retry = useCallback(() => {
    refresh.current = true;
    setTick((n) => n + 1);
  }, []);
  return { listed: state.agent === agent ? state.v : undefined, retry };
}

/**
 * What the picker shows for a model: its name, else its id — not both, so
 * the closed picker is not cut mid-id ("Demo small (demo-s"); the id is in
 * the option's tooltip. Agent-given text: bidi and zero-width characters
 * show as <U+XXXX> (an <option> holds text only, no badge elements).
 */
export function modelLabel(m: ModelOption): string {
  return revealInvisible(m.name || m.id);
}

export function ModelPicker({ models, current, onPick, note, onRetry }: {
  models: ModelOption[];
  current?: string;
  /** Resolves an error message when the choice was refused. */
  onPick(model: string): Promise<string | undefined>;
  /** Why there are no models to pick (the agent's server could not be reached). */
  note?: string;
  onRetry?(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  if (models.length === 0) {
    if (!note) return null;
    return (
      <span className="model-picker model-note" role="status" title={note}>
        <span className="ellipsis">{note}</span>
        {onRetry && <button type="button" className="link-btn" onClick={onRetry}>Retry</button>}
      </span>
    );
  }
  const known = models.some((m) => m.id === current);
  return (
    <span className="model-picker">
      <select
        aria-label="Model"
        className="model-select mono"
        value={known ? current : ""}
        disabled={busy}
        title={err ?? "Model for this session"}
        onChange={async (e) => {
          const m = e.target.value;
          if (!m || m === current) return;
          setBusy(true);
          const note = await onPick(m);
          setBusy(false);
          setErr(note);
        }}
      >
        {!known && <option value="">{current ? revealInvisible(current) : "Agent's default"}</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id} title={revealInvisible([m.name && m.name !== m.id ? m.id : "", m.description].filter(Boolean).join(" — "))}>{modelLabel(m)}</option>
        ))}
      </select>
      {err && <span className="model-err" role="alert">{err}</span>}
    </span>
  );
}
