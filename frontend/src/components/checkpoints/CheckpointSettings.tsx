// Settings → Checkpoints: on or off, the disk they use, and how long and
// how much is kept (the backend's keys: backend/checkpoints/retention.go;
// docs/ARCHITECTURE.md §Checkpoints, Retention).
import { useEffect, useState } from "react";
import type { Settings } from "../../transport/types";
import { causeText } from "../common/bannerError";
import "./checkpoints.css";

export const CHECKPOINT_KEYS = {
  enabled: "checkpoints.enabled",
  maxAgeDays: "checkpoints.max_age_days",
  maxBytes: "checkpoints.max_bytes",
} as const;
export const DEFAULT_MAX_AGE_DAYS = 30;
export const DEFAULT_MAX_GIB = 2;
const GIB = 1 << 30;

export interface CheckpointSettingsApi {
  getSettings(): Promise<Settings>;
  putSettings(s: Settings): Promise<Settings>;
  checkpointUsage(): Promise<{ bytes: number; checkpoints: number }>;
}

/** Bytes in the person's units. */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024;
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/**
 * The stored values from the form: empty means the default (null clears
 * it); otherwise a positive number of days and of GB, or a plain error.
 */
export function parseRetention(days: string, gib: string): { [k: string]: number | null } {
  const num = (t: string, what: string, max: number) => {
    const s = t.trim();
    if (s === "") return null;
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`Enter ${what} above 0 and at most ${max}, or leave it empty for the default.`);
    return n;
  };
  const d = num(days, "a number of days", 3650);
  const g = num(gib, "a size in GB", 10240);
  return { [CHECKPOINT_KEYS.maxAgeDays]: d, [CHECKPOINT_KEYS.maxBytes]: g === null ? null : Math.round(g * GIB) };
}

const positive = (v: unknown): v is number => typeof v === "number" && v > 0;

export function CheckpointSettings({ api }: { api: CheckpointSettingsApi }) {
  const [settings, setSettings] = useState<Settings | null>();
  const [usage, setUsage] = useState<string>();
  const [days, setDays] = useState("");
  const [gib, setGib] = useState("");
  const [err, setErr] = useState<string>();
  const [note, setNote] = useState<string>();
  useEffect(() => {
    let live = true;
    api.getSettings().then(
      (s) => {
        if (!live) return;
        setSettings(s ?? {});
        const d = s?.[CHECKPOINT_KEYS.maxAgeDays];
        const b = s?.[CHECKPOINT_KEYS.maxBytes];
        setDays(positive(d) ? String(d) : "");
        setGib(positive(b) ? String(Math.round((b / GIB) * 100) / 100) : "");
      },
      () => live && setSettings(null),
    );
    api.checkpointUsage().then(
      (u) => live && setUsage(`${sizeText(u.bytes)} in ${u.checkpoints} ${u.checkpoints === 1 ? "checkpoint" : "checkpoints"}`),
      (e) => live && setUsage(`could not be measured: ${causeText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (settings === null) return <p className="quiet">Checkpoint settings could not be read.</p>;
  const enabled = settings?.[CHECKPOINT_KEYS.enabled] !== false;
  const put = async (patch: Settings, saved: string) => {
    setErr(undefined);
    setNote(undefined);
    try {
      setSettings(await api.putSettings(patch));
      setNote(saved);
    } catch (e) {
      setErr(`Could not save: ${causeText(e)}`);
    }
  };
  return (
    <fieldset className="field" aria-busy={settings === undefined}>
      <legend>Checkpoints</legend>
      <div className="field row">
        <div>
          <label htmlFor="checkpoints-on" className="field-label">Keep the files before every run</label>
          <p className="quiet">So a run can be undone and files restored to before any message. Your branches, index and stash are never touched.</p>
        </div>
        <input
          id="checkpoints-on"
          type="checkbox"
          role="switch"
          className="switch"
          checked={enabled}
          disabled={settings === undefined}
          onChange={(e) => void put({ [CHECKPOINT_KEYS.enabled]: e.target.checked }, e.target.checked ? "Checkpoints are on." : "Checkpoints are off: new runs cannot be undone.")}
        />
      </div>
      <p className="checkpoint-usage quiet" role="status" aria-label="Disk used by checkpoints">Disk used: {usage ?? "measuring…"}</p>
      <form
        className="retention-row checkpoint-limits"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          let patch: Settings;
          try {
            patch = parseRetention(days, gib);
          } catch (x) {
            setErr(x instanceof Error ? x.message : String(x));
            return;
          }
          void put(patch, "Saved: older checkpoints go first when either limit is passed.");
        }}
      >
        <label htmlFor="checkpoint-days" className="field-label">Keep for (days)</label>
        <input id="checkpoint-days" className="input retention-input" inputMode="decimal" placeholder={String(DEFAULT_MAX_AGE_DAYS)} value={days} onChange={(e) => setDays(e.target.value)} />
        <label htmlFor="checkpoint-gib" className="field-label">At most (GB)</label>
        <input id="checkpoint-gib" className="input retention-input" inputMode="decimal" placeholder={String(DEFAULT_MAX_GIB)} value={gib} onChange={(e) => setGib(e.target.value)} />
        <span className="spacer" />
        <button type="submit" className="btn btn-secondary" aria-label="Save checkpoint limits">Save</button>
      </form>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
      {note && <p className="control-note" role="status">{note}</p>}
    </fieldset>
  );
}
