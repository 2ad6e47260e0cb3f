// The sidebar's other hosts (docs/ARCHITECTURE.md §Remote cores): below
// this computer's projects, one group per host the core follows, with its
// projects read through /api/hosts/{host}/… and, while its core cannot be
// reached, that said in words (its runs go on there). The hosts and their
// reachability come from the watch bus (snapshot `hosts`, `host.changed`):
// nothing polls. A project opens to its sessions (read through the host
// transport, again when the bus says the host's sessions changed); a
// session or "New session" opens in the main pane (RemoteSession.tsx).
import { ChevronDown, ChevronRight, Plus, Server } from "lucide-react";
import { useEffect, useState } from "react";
import type { WatchBus } from "../../store/bus";
import { forHost } from "../../transport/host";
import type { Transport } from "../../transport/transport";
import type { HostState, Project, Session } from "../../transport/types";
import { hostLabel, type RemoteOpen } from "../../hosts/remote";

// The last lists read from each host, per window (its bus): a sidebar that
// mounts again (a narrow window's overlay) while a host is away still shows
// what it had, with the reason beside it.
const lastRead = new WeakMap<WatchBus, Map<string, unknown>>();
function remembered<T>(bus: WatchBus, key: string): T | undefined {
  return lastRead.get(bus)?.get(key) as T | undefined;
}
function remember(bus: WatchBus, key: string, v: unknown): void {
  let m = lastRead.get(bus);
  if (!m) lastRead.set(bus, (m = new Map()));
  m.set(key, v);
}

export interface HostsSectionProps {
  bus: WatchBus;
  t: Transport;
  /** What the main pane shows of a host, to mark it selected. */
  open?: RemoteOpen;
  onOpen?(r: RemoteOpen): void;
}

export function HostsSection({ bus, t, open, onOpen }: HostsSectionProps) {
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
        <HostGroup key={h.host} host={h} t={t} bus={bus} open={open?.host === h.host ? open : undefined} onOpen={onOpen} />
      ))}
    </>
  );
}

function HostGroup({ host, t, bus, open, onOpen }: { host: HostState; t: Transport; bus: WatchBus; open?: RemoteOpen; onOpen?(r: RemoteOpen): void }) {
  const name = host.host;
  const label = hostLabel(name, [host]);
  const [projects, setProjects] = useState<Project[] | undefined>(() => remembered(bus, name));
  const [failed, setFailed] = useState<string>();
  const { reachable } = host;
  // A project just added on the host (NewProjectWhere) opens before the list has it: read again.
  const openId = open?.project.id;
  const unlisted = !!openId && !!projects && !projects.some((x) => x.id === openId);
  useEffect(() => {
    if (!reachable) return;
    let live = true;
    const read = () =>
      t.api.hostProjects(name).then(
        (ps) => {
          remember(bus, name, ps);
          if (live) (setProjects(ps), setFailed(undefined));
        },
        (e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)),
      );
    void read();
    // A project added on the host (here or elsewhere) shows up.
    const off = bus.subscribe((m) => {
      if (m.type === "session.changed" && m.session?.host === name && m.session.kind === "project") void read();
    });
    return () => {
      live = false;
      off();
    };
  }, [t, bus, name, reachable, unlisted]);
  const trouble = !reachable ? host.error || `${label} cannot be reached right now; its runs go on there.` : failed;
  return (
    <section className="host-group" aria-label={`Host ${label}`}>
      <div className="sidebar-section-head">
        <span>
          <Server size={14} aria-hidden /> {label}
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
            <HostProject key={proj.id} host={name} label={label} project={proj} t={t} bus={bus} reachable={reachable} open={open?.project.id === proj.id ? open : undefined} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </section>
  );
}

function HostProject(p: { host: string; label: string; project: Project; t: Transport; bus: WatchBus; reachable: boolean; open?: RemoteOpen; onOpen?(r: RemoteOpen): void }) {
  const { host, label, project, t, bus, reachable, open, onOpen } = p;
  const key = `${host}\n${project.id}`;
  const [sessions, setSessions] = useState<Session[] | undefined>(() => remembered(bus, key));
  const [expanded, setExpanded] = useState(!!open || sessions !== undefined);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!expanded || !reachable) return;
    let live = true;
    const api = forHost(t, host).api;
    const read = () =>
      api.listSessions(project.id).then(
        (ss) => {
          remember(bus, key, ss);
          if (live) setSessions(ss);
        },
        () => undefined,
      );
    void read();
    const off = bus.subscribe((m) => {
      if (m.type === "session.changed" && m.session?.host === host) void read();
      // The run markers follow the bus's runs of this host.
      if (m.type === "run.changed" && m.run?.host === host) setTick((n) => n + 1);
    });
    return () => {
      live = false;
      off();
    };
  }, [expanded, reachable, t, bus, host, project.id, key]);
  const active = bus.active();
  return (
    <li className="host-project-item">
      <div className="host-project">
        <button type="button" className="host-project-name" aria-expanded={expanded} title={project.workspace} onClick={() => setExpanded((x) => !x)}>
          {expanded ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
          <span className="ellipsis">{project.name}</span>
        </button>
        {onOpen && (
          <button type="button" className="icon-btn" aria-label={`New session in ${project.name} on ${label}`} title={`New session on ${label}`} onClick={() => onOpen({ host, project })}>
            <Plus size={14} />
          </button>
        )}
      </div>
      {expanded && sessions && (
        <ul className="host-sessions">
          {sessions.length === 0 && <li className="sidebar-empty">No sessions yet.</li>}
          {sessions.map((s) => {
            const running = active.some((r) => r.session_id === s.id);
            const selected = open?.session?.id === s.id;
            return (
              <li key={s.id} className={`session-item${selected ? " selected" : ""}`}>
                <button type="button" className={`session-row${selected ? " selected" : ""}`} aria-current={selected ? "page" : undefined} data-session-id={s.id} onClick={() => onOpen?.({ host, project, session: s })}>
                  <span className="ellipsis">{s.title || "Untitled"}</span>
                  {running && (
                    <span className="marker marker-running" title={`Running on ${label}`}>
                      <span className="sr-only">running on {label}</span>
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
