// "Where" for a new project (docs/ARCHITECTURE.md §Remote cores, "The
// window"): this computer (the folder picker or a typed path, as before) or
// one of the hosts the core follows — there the folder is a path on the
// host, typed, and checked by the host's own API; the project then opens
// under that host in the sidebar.
import { FolderOpen, Server } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { PickProject } from "../common/EmptyStates";
import { causeText } from "../common/bannerError";
import { hostLabel, type RemoteOpen } from "../../hosts/remote";
import { basename } from "../../store/ids";
import type { WatchBus } from "../../store/bus";
import { forHost } from "../../transport/host";
import type { Transport } from "../../transport/transport";
import type { HostState } from "../../transport/types";

export interface NewProjectWhereProps {
  t: Transport;
  bus: WatchBus;
  canPickFolder: boolean;
  onPick(): void;
  onAddPath(path: string): Promise<string | undefined>;
  onOpen(r: RemoteOpen): void;
}

export function NewProjectWhere(p: NewProjectWhereProps) {
  const [hosts, setHosts] = useState<HostState[]>(() => p.bus.hosts());
  const [where, setWhere] = useState("");
  const { bus } = p;
  useEffect(() => {
    setHosts(bus.hosts());
    return bus.subscribe((m) => {
      if (m.type === "snapshot" || m.type === "host.changed") setHosts(bus.hosts());
    });
  }, [bus]);
  const local = <PickProject canPickFolder={p.canPickFolder} onPick={p.onPick} onAddPath={p.onAddPath} />;
  if (hosts.length === 0) return local;
  const host = hosts.find((h) => h.host === where);
  return (
    <div className="new-project-where">
      <div className="segmented where-choice" role="radiogroup" aria-label="Where the project is">
        <button type="button" role="radio" aria-checked={!host} className={!host ? "on" : ""} onClick={() => setWhere("")}>
          <FolderOpen size={14} aria-hidden /> This computer
        </button>
        {hosts.map((h) => (
          <button key={h.host} type="button" role="radio" aria-checked={host?.host === h.host} className={host?.host === h.host ? "on" : ""} onClick={() => setWhere(h.host)}>
            <Server size={14} aria-hidden /> {hostLabel(h.host, [h])}
          </button>
        ))}
      </div>
      {host ? <HostFolder key={host.host} t={p.t} host={host} onOpen={p.onOpen} /> : local}
    </div>
  );
}

function HostFolder({ t, host, onOpen }: { t: Transport; host: HostState; onOpen(r: RemoteOpen): void }) {
  const [path, setPath] = useState("");
  const [err, setErr] = useState<string>();
  const [busy, setBusy] = useState(false);
  const id = host.host;
  const name = hostLabel(id, [host]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const folder = path.trim();
    if (!folder || busy) return;
    setBusy(true);
    try {
      // The host's core checks the folder (it must exist there); its refusal is said as it is.
      const project = await forHost(t, id, name).api.createProject(basename(folder), folder);
      onOpen({ host: id, project });
    } catch (e) {
      setErr(causeText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="empty">
      <div className="empty-icon tone-accent"><Server size={28} aria-hidden /></div>
      <h2>A project folder on {name}</h2>
      <p>The agents run on {name}, in a folder there: type its path on that machine.</p>
      {!host.reachable && (
        <p className="control-note" role="status">
          {name} can't be reached right now; a project can be added there once it answers.
        </p>
      )}
      <form className="path-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor="host-project-path" className="sr-only">Folder path on {name}</label>
        <input id="host-project-path" className="input mono" placeholder="/home/you/code/project" value={path} onChange={(e) => setPath(e.target.value)} autoFocus />
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || busy || !host.reachable}>Add folder on {name}</button>
      </form>
      {err && <p className="control-note" role="alert">{err}</p>}
    </div>
  );
}
