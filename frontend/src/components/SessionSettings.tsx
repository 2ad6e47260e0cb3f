// The agent's own session settings in the session header, each by its name
// (docs/ARCHITECTURE.md §Session config options): mode, thought level,
// switches. The model has its picker beside it, so it is left out here.
import { useState } from "react";
import type { RunStore } from "../store/runStore";
import type { ConfigOption } from "../store/model";
import { revealInvisible } from "../text/invisible";
import { Visible } from "../text/Visible";

/** The settings the session's latest run reported, [] when none did. */
export function latestConfig(runs: Pick<RunStore, "view">, runIds: string[]): ConfigOption[] {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const c = runs.view(runIds[i]!)?.config;
    if (c && c.length > 0) return c;
  }
  return [];
}

/** One setting as a person reads it: its name and the chosen value's name (never a raw id when a name is known). */
export function settingText(o: ConfigOption): { name: string; value: string; title?: string } {
  if (o.type === "boolean") return { name: o.name, value: o.current === "true" ? "on" : "off", title: o.description };
  const v = o.values.find((x) => x.id === o.current);
  return { name: o.name, value: v?.name || o.current || "—", title: v?.description ?? o.description };
}

/**
 * While a run works the settings can be changed (onSet: the agent is asked,
 * the choice holds for the rest of the session while its agent stays warm);
 * otherwise they are named only.
 */
export function SessionSettings({ options, onSet }: { options: ConfigOption[]; onSet?: (id: string, value: string) => Promise<string | undefined> }) {
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
        if (onSet && o.values.length > 1) {
          return (
            <label key={o.id} className="chip chip-setting" title={t.title}>
              <Visible text={t.name} />:{" "}
              <select aria-label={o.name} value={o.current} disabled={busy} onChange={(e) => void set(o.id, e.target.value)}>
                {!o.values.some((v) => v.id === o.current) && <option value={o.current}>{o.current}</option>}
                {o.values.map((v) => (
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
