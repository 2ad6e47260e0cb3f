import { useState } from "react";

/** The setting capping running runs across sessions (backend/supervisor). */
export const MAX_RUNS_KEY = "max_concurrent_runs";
export const DEFAULT_MAX_RUNS = 4;

/** max_concurrent_runs as the form shows it: "" means the default. */
export function maxRunsText(v: unknown): string {
  return typeof v === "number" && Number.isInteger(v) && v >= 1 ? String(v) : "";
}

/** The value to store: null (the default) or a whole number from 1 to 64. */
export function parseMaxRuns(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error("Enter a whole number from 1 to 64, or leave it empty for the default (4).");
  return n;
}

/** "Runs at once": how many runs work at the same time; more wait, saying so. */
export function RunLimitSetting({ value, onSave }: { value: unknown; onSave(n: number | null): Promise<void> }) {
  const [text, setText] = useState(() => maxRunsText(value));
  const [err, setErr] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const store = async () => {
    let n: number | null;
    try {
      n = parseMaxRuns(text);
    } catch (x) {
      setErr(x instanceof Error ? x.message : String(x));
      return;
    }
    setErr(undefined);
    setBusy(true);
    try {
      await onSave(n);
      setNote(`Saved: up to ${n ?? DEFAULT_MAX_RUNS} runs work at once; more wait for a free slot.`);
    } catch (x) {
      setErr(`Could not save: ${x instanceof Error ? x.message : String(x)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="settings-section" aria-labelledby="runs-head">
      <h3 id="runs-head">Runs</h3>
      <form
        className="retention-row"
        onSubmit={(e) => {
          e.preventDefault();
          void store();
        }}
        noValidate
      >
        <label htmlFor="max-runs" className="field-label">Runs at once</label>
        <input
          id="max-runs"
          className="input retention-input"
          type="number"
          inputMode="numeric"
          min={1}
          max={64}
          step={1}
          placeholder={String(DEFAULT_MAX_RUNS)}
          value={text}
          aria-invalid={err ? true : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setNote(undefined);
          }}
        />
        <span className="spacer" />
        <button type="submit" className="btn btn-secondary" disabled={busy} aria-label="Save runs at once">Save</button>
      </form>
      <p className="quiet">Across all sessions; each run is a live agent. A run beyond it waits and says so.</p>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
      {note && <p className="control-note" role="status">{note}</p>}
    </section>
  );
}
