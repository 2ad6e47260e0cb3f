// Settings → Hosts: the machines agents can run on over the person's own
// ssh (docs/ARCHITECTURE.md §Hosts). Adding one checks it; a refusal is
// the backend's sentence (unreachable, login refused, host key, home,
// platform), shown as written.
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { causeText } from "../common/bannerError";
import type { Host } from "../../transport/types";
import type { WatchBus } from "../../store/bus";

export type { Host };

export interface HostsApi {
  hosts(): Promise<Host[]>;
  addHost(target: string): Promise<Host>;
  removeHost(id: string): Promise<void>;
}

/** What a host's line says about it. */
export function hostLine(h: Host): string {
  const where = h.os && h.arch ? `${h.os}/${h.arch}` : "";
  const parts = [h.status, where, h.version && `Hermes Desk ${h.version}`].filter(Boolean);
  return parts.join(" · ");
}

export function HostsSettings({ api, bus }: { api: HostsApi; bus?: Pick<WatchBus, "subscribe"> }) {
  const [list, setList] = useState<Host[] | null>();
  const [target, setTarget] = useState("");
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();

  const load = useCallback(async () => {
    try {
      setList(await api.hosts());
    } catch {
      setList(null);
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);
  // A host added or removed elsewhere (the CLI), or its link going down
  // or coming back, says host.changed; a reconnect's snapshot may have
  // missed one.
  useEffect(
    () =>
      bus?.subscribe((m) => {
        if (m.type === "host.changed" || m.type === "snapshot") void load();
      }),
    [bus, load],
  );

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const t = target.trim();
    if (!t) return;
    setErr(undefined);
    setBusy(true);
    try {
      await api.addHost(t);
      setTarget("");
      await load();
    } catch (e) {
      setErr(causeText(e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (h: Host) => {
    setErr(undefined);
    try {
      await api.removeHost(h.id);
      await load();
    } catch (e) {
      setErr(causeText(e));
    }
  };

  return (
    <fieldset className="field" aria-busy={list === undefined || busy}>
      <legend>Hosts</legend>
      <p className="quiet">
        Machines your agents can run on, reached with your own <code>ssh</code> (your ~/.ssh/config, keys and agent).
      </p>
      {list === null && <p className="quiet">Hosts could not be read.</p>}
      {list && list.length > 0 && (
        <ul className="hosts-list" aria-label="Hosts">
          {list.map((h) => (
            <li key={h.id} className="field row">
              <div>
                <span className="field-label">{h.target}</span>
                <p className="quiet">{hostLine(h)}</p>
                {h.note && <p className="quiet">{h.note}</p>}
              </div>
              <button type="button" className="btn btn-secondary" onClick={() => void remove(h)} aria-label={`Remove ${h.target}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="field row" onSubmit={(e) => void add(e)}>
        <label htmlFor="host-target" className="field-label">Add a host</label>
        <input
          id="host-target"
          type="text"
          placeholder="user@host or an ssh alias"
          value={target}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setTarget(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy || !target.trim()}>
          {busy ? "Checking…" : "Add"}
        </button>
      </form>
      {err && <p className="control-note" role="alert">{err}</p>}
    </fieldset>
  );
}
