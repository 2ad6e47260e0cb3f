// Settings → History: the agents' own conversation files found on this
// machine, each with Import and a mirror switch (docs/ARCHITECTURE.md
// §History). Imported sessions land in the projects of their folders.
import { useCallback, useEffect, useState } from "react";
import type { ApiClient } from "../../transport/api";
import type { HistoryImportResult, HistorySource } from "../../transport/types";

export type HistoryApi = Pick<ApiClient, "historySources" | "importHistory">;

/** One line saying what an import did. */
export function importSummary(r: HistoryImportResult): string {
  const parts = [`${r.imported} imported`];
  if (r.updated) parts.push(`${r.updated} updated`);
  if (r.already) parts.push(`${r.already} already here`);
  if (r.skipped) parts.push(`${r.skipped} with no finished conversation yet`);
  if (r.failed?.length) parts.push(`${r.failed.length} could not be read`);
  return parts.join(", ") + ".";
}

function when(iso?: string): string {
  if (!iso) return "never";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "unknown" : d.toLocaleString();
}

export function HistorySettings({ api }: { api: HistoryApi }) {
  // undefined: loading; null: could not be read.
  const [sources, setSources] = useState<HistorySource[] | null>();
  const [busy, setBusy] = useState<string>();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<Record<string, HistoryImportResult["failed"]>>({});

  const load = useCallback(async () => {
    try {
      setSources(await api.historySources());
    } catch {
      setSources(null);
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (id: string, mirror?: boolean) => {
    setBusy(id);
    try {
      const r = await api.importHistory(id, mirror);
      setNotes((n) => ({ ...n, [id]: importSummary(r) + (r.mirror ? " Mirror on: new turns come in as the agent writes them." : "") }));
      setFailed((f) => ({ ...f, [id]: r.failed }));
      await load();
    } catch (e) {
      setNotes((n) => ({ ...n, [id]: e instanceof Error ? e.message : "The import failed. Try again." }));
    } finally {
      setBusy(undefined);
    }
  };

  if (sources === null) return <p className="quiet">The agents' histories could not be read.</p>;
  return (
    <fieldset className="field" aria-busy={sources === undefined}>
      <legend>History</legend>
      <p className="quiet">
        Conversations you had in the agents themselves. Importing brings them into the project of their folder, read-only
        until you Continue one; the agents' files are only read.
      </p>
      {sources?.length === 0 && <p className="quiet">No Claude Code or Codex history found on this machine.</p>}
      {sources?.map((s) => (
        <div className="field" key={s.id} data-testid={`history-${s.id}`}>
          <div className="field row">
            <div>
              <span className="field-label">{s.name || s.id}</span>
              <p className="quiet">
                {s.sessions} {s.sessions === 1 ? "session" : "sessions"} · last update {when(s.last_update)} · <code>{s.root}</code>
              </p>
            </div>
            <button type="button" className="btn btn-secondary" disabled={busy !== undefined} onClick={() => void run(s.id)}>
              {busy === s.id ? "Importing…" : "Import"}
            </button>
          </div>
          <div className="field row">
            <label htmlFor={`mirror-${s.id}`} className="field-label">Mirror: keep importing while the app runs</label>
            <input
              id={`mirror-${s.id}`}
              type="checkbox"
              role="switch"
              className="switch"
              checked={s.mirror}
              disabled={busy !== undefined}
              onChange={(e) => void run(s.id, e.target.checked)}
            />
          </div>
          {s.errors?.map((m) => <p key={m} className="control-note" role="alert">{m}</p>)}
          {notes[s.id] && <p className="control-note" role="status">{notes[s.id]}</p>}
          {failed[s.id]?.map((f) => (
            <p key={f.file} className="quiet">
              Not imported: <code>{f.file}</code>: {f.reason}
            </p>
          ))}
        </div>
      ))}
    </fieldset>
  );
}
