// The agent's own session settings in the session header, each by its name
// (docs/ARCHITECTURE.md §Session config options): mode, thought level,
// switches. The model has its picker beside it, so it is left out here.
import type { RunStore } from "../store/runStore";
import type { ConfigOption } from "../store/model";
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

export function SessionSettings({ options }: { options: ConfigOption[] }) {
  const shown = options.filter((o) => o.category !== "model");
  if (shown.length === 0) return null;
  return (
    <span className="session-settings" aria-label="Agent settings">
      {shown.map((o) => {
        const t = settingText(o);
        return (
          <span key={o.id} className="chip chip-setting" title={t.title}>
            <Visible text={t.name} />: <Visible text={t.value} />
          </span>
        );
      })}
    </span>
  );
}
