// The sidebar's other hosts (docs/ARCHITECTURE.md §Remote cores): below
// this computer's projects, one group per host the core follows, with its
// projects read through /api/hosts/{host}/… and, while its core cannot be
// reached, that said in words (its runs go on there). The hosts and their
// reachability come from the watch bus (snapshot `hosts`, `host.changed`):
// nothing polls.
import { Folder, Server } from "lucide-react";
import { useEffect, useState } from "react";
import type { ApiClient } from "../../transport/api";
import type { HostState, Project } from "../../transport/types";
import type { WatchBus } from "../../store/bus";

export function HostsSection({ bus, api }: { bus: WatchBus; api: ApiClient }) {
  const [hosts, setHosts] = useState<HostState[]>(() => bus.hosts());
  useEffect(() => {
    setHosts(bus.hosts());
    return bus.subscribe((m) => {
      if (m.type === "snapshot" || m.type === "host.changed") setHosts(bus.hosts());
    });
  }, [bus]);
  if (hosts.length === 0) return null;
  return (
    <>
      {hosts.map((h) => (
        <HostGroup key={h.host} host={h} api={api} />
      ))}
    </>
  );
}

function HostGroup({ host, api }: { host: HostState; api: ApiClient }) {
  const [projects, setProjects] = useState<Project[]>();
  const [failed, setFailed] = useState<string>();
  const { reachable } = host;
  useEffect(() => {
    if (!reachable) return;
    let live = true;
    api.hostProjects(host.host).then(
      (ps) => live && (setProjects(ps), setFailed(undefined)),
      (e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [api, host.host, reachable]);
  const trouble = !reachable ? host.error || `${host.host} cannot be reached right now; its runs go on there.` : failed;
  return (
    <section className="host-group" aria-label={`Host ${host.host}`}>
      <div className="sidebar-section-head">
        <span>
          <Server size={14} aria-hidden /> {host.host}
        </span>
      </div>
      {trouble && (
        <p className="sidebar-empty host-unreachable" role="status">
          {trouble}
        </p>
      )}
      {projects?.length === 0 && !trouble && <p className="sidebar-empty">No projects on this host yet.</p>}
      {projects && projects.length > 0 && (
        <ul>
          {projects.map((proj) => (
            <li key={proj.id} className="host-project" title={proj.workspace}>
              <Folder size={14} aria-hidden /> {proj.name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
