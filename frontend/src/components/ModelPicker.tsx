// The session header's model picker, where the agent reports its models
// (ACP session models). While a run is going the choice switches that run
// (and is kept for the session); between runs it is stored on the session,
// so the next run — a fresh agent too — starts on it.
import { useState } from "react";
import type { RunStore } from "../store/runStore";

export type ModelOption = { id: string; name?: string; description?: string };

/** The models last reported in the session's runs (newest first). */
export function latestModels(runs: Pick<RunStore, "view">, runIds: string[]): ModelOption[] {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const m = runs.view(runIds[i]!)?.models;
    if (m && m.length > 0) return m;
  }
  return [];
}

export function ModelPicker({ models, current, onPick }: {
  models: ModelOption[];
  current?: string;
  /** Resolves an error message when the choice was refused. */
  onPick(model: string): Promise<string | undefined>;
}) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  if (models.length === 0) return null;
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
        {!known && <option value="">{current || "Agent's default"}</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id} title={m.description}>{m.name && m.name !== m.id ? `${m.name} (${m.id})` : m.id}</option>
        ))}
      </select>
      {err && <span className="model-err" role="alert">{err}</span>}
    </span>
  );
}
