// The agent's own session settings in the session header, each by its name
// (docs/ARCHITECTURE.md §Session config options): mode, thought level,
// switches. The model has its picker beside it, so it is left out here.
import { useEffect, useState } from "react";
import type { RunStore } from "../../store/runStore";
import type { ConfigOption } from "../../store/model";
import type { AgentConfig, WatchMessage } from "../../transport/types";
import { revealInvisible } from "../../text/invisible";
import { Visible } from "../../text/Visible";

/** The settings the session's latest run reported, [] when none did. */
export function latestConfig(runs: Pick<RunStore, "view">, runIds: string[]): ConfigOption[] {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const c = runs.view(runIds[i]!)?.config;
    if (c && c.length > 0) return c;
  }
  return [];
}

/**
 * What the header shows: while a run works, the settings it reports; between
 * runs, the latest run's with the session's kept choices (what its next run
 * starts with); before the first run, the agent's settings for a new session
 * as last reported on this machine, read-only (agentDefault).
 */
export function headerSettings(latest: ConfigOption[], kept: Record<string, string> | undefined, defaults: ConfigOption[], active: boolean): { options: ConfigOption[]; agentDefault: boolean } {
  if (active && latest.length > 0) return { options: latest, agentDefault: false };
  let changed = false;
  const options = (latest.length > 0 ? latest : defaults).map((o) => {
    const v = kept?.[o.id];
    const offered = v !== undefined && (o.type === "boolean" ? v === "true" || v === "false" : (o.values ?? []).some((x) => x.id === v));
    if (!offered || v === o.current) return o;
    changed = true;
    return { ...o, current: v };
  });
  // Until a run reports the session's own settings, the agent's defaults
  // are named as such — unless the session keeps other choices.
  return { options, agentDefault: latest.length === 0 && options.length > 0 && !changed };
}

const noDefaults: AgentConfig = { agent: "", options: [] };

/**
 * The agent's settings, model and models for a new session (GET
 * /api/agents/{name}/config), asked once per agent shown and again when the
 * agents changed; empty until known or when the request fails.
 */
export function useAgentConfig(
  api: { agentConfig?(agent: string): Promise<AgentConfig> },
  agent: string,
  bus?: { subscribe(cb: (m: WatchMessage) => void): () => void },
): AgentConfig {
  const [state, setState] = useState<AgentConfig>(noDefaults);
  const [tick, setTick] = useState(0);
  useEffect(() => bus?.subscribe((m) => m.type === "agents.changed" && setTick((n) => n + 1)), [bus]);
  useEffect(() => {
    let live = true;
    api.agentConfig?.(agent).then(
      (v) => live && setState({ ...v, agent, options: v.options ?? [] }),
      () => live && setState({ agent, options: [] }),
    );
    return () => {
      live = false;
    };
  }, [api, agent, tick]);
  return state.agent === agent ? state : noDefaults;
}

/** The model picker's list and choice from the agent's defaults: its model selector, else the models it reported apart. */
export function defaultModels(d: AgentConfig): { model?: string; models: { id: string; name?: string; description?: string }[] } {
  const sel = d.options.find((o) => o.category === "model" && o.type === "select");
  if (sel) return { model: sel.current, models: sel.values ?? [] };
  return { model: d.model || undefined, models: d.models ?? [] };
}

/** One setting as a person reads it: its name and the chosen value's name (never a raw id when a name is known). */
export function settingText(o: ConfigOption): { name: string; value: string; title?: string } {
  if (o.type === "boolean") return { name: o.name, value: o.current === "true" ? "on" : "off", title: o.description };
  const v = (o.values ?? []).find((x) => x.id === o.current);
  return { name: o.name, value: v?.name || o.current || "—", title: v?.description ?? o.description };
}

/**
 * The settings can be changed when onSet is given: while a run works the
 * agent is asked, between runs the session keeps the choice for its next
 * runs. Before the first run they are the agent's defaults, named with
 * "(agent default)" and not changeable (agentDefault).
 */
export function SessionSettings({ options, onSet, agentDefault }: { options: ConfigOption[]; onSet?: (id: string, value: string) => Promise<string | undefined>; agentDefault?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | undefined>();
  const shown = options.filter((o) => o.category !== "model");
  if (shown.length === 0) return null;
  const set = async (id: string, value: string) => {
    if (!onSet || busy) return;
    setBusy(true);
    setNote(await onSet(id, value));
    setBusy(false);
  };
  if (agentDefault) {
    return (
      <span className="session-settings" aria-label="Agent settings">
        {shown.map((o) => {
          const t = settingText(o);
          return (
            <span key={o.id} className="chip chip-setting chip-default" aria-disabled="true" title={`${t.title ? `${t.title} — ` : ""}The agent's default: it can be changed once the session has started`}>
              <Visible text={t.name} />: <Visible text={t.value} /> <span className="tone-muted">(agent default)</span>
            </span>
          );
        })}
      </span>
    );
  }
  return (
    <span className="session-settings" aria-label="Agent settings">
      {shown.map((o) => {
        const t = settingText(o);
        if (onSet && o.type === "boolean") {
          return (
            <label key={o.id} className="chip chip-setting" title={t.title}>
              <input type="checkbox" checked={o.current === "true"} disabled={busy} onChange={(e) => void set(o.id, String(e.target.checked))} />{" "}
              <Visible text={t.name} />
            </label>
          );
        }
        if (onSet && (o.values ?? []).length > 1) {
          return (
            <label key={o.id} className="chip chip-setting" title={t.title}>
              <Visible text={t.name} />:{" "}
              <select aria-label={o.name} value={o.current} disabled={busy} onChange={(e) => void set(o.id, e.target.value)}>
                {!(o.values ?? []).some((v) => v.id === o.current) && <option value={o.current}>{o.current}</option>}
                {(o.values ?? []).map((v) => (
                  <option key={v.id} value={v.id} title={v.description}>
                    {revealInvisible(v.name || v.id)}
                  </option>
                ))}
              </select>
            </label>
          );
        }
        return (
          <span key={o.id} className="chip chip-setting" title={t.title}>
            <Visible text={t.name} />: <Visible text={t.value} />
          </span>
        );
      })}
      {note && <span className="control-note" role="alert">{note}</span>}
    </span>
  );
}
