// What the window decides about a session on another host
// (docs/ARCHITECTURE.md §Remote cores, "The window"): which local copy
// stands for it while the host cannot be reached, and the sentence that
// says so. Pure: table-tested in remote.test.ts.
import { forHost } from "../transport/host";
import type { Transport } from "../transport/transport";
import type { HostState, Project, Session } from "../transport/types";

/** A project or session of a host opened in the window. */
export interface RemoteOpen {
  host: string;
  project: Project;
  /** Absent: a new session in the host's project. */
  session?: Session;
}

/**
 * How a person calls a host (docs/ARCHITECTURE.md §Remote cores): the
 * target they typed when adding it (`build-box`, `me@10.0.0.5`), its id
 * only when no record of it is known. The one place the window decides
 * it; Go's twin is backend/run HostLabel (tray, notifications).
 */
export function hostLabel(host: string, hosts: readonly HostState[] = []): string {
  const target = hosts.find((h) => h.host === host)?.record?.target?.trim();
  return target || host;
}

/** The badge backend/remote gives a host's copied sessions (remote.Source). */
export function copySource(host: string): string {
  return `host ${host}`;
}

/**
 * The local copy of a host's session (backend/remote/copy.go: imported
 * with the source "host HOST", the session's created_at kept), the newest
 * when several match; undefined when none was copied yet.
 */
export function localCopyOf(host: string, remote: Session, local: readonly Session[]): Session | undefined {
  const src = copySource(host);
  let best: Session | undefined;
  for (const s of local) {
    if (s.imported_from !== src) continue;
    if (!remote.created_at || !sameInstant(s.created_at, remote.created_at)) continue;
    if (!best || (s.updated_at ?? "") > (best.updated_at ?? "")) best = s;
  }
  return best;
}

function sameInstant(a: string | undefined, b: string): boolean {
  if (!a) return false;
  if (a === b) return true;
  const x = Date.parse(a);
  const y = Date.parse(b);
  return !Number.isNaN(x) && x === y;
}

/** HH:MM in the person's time zone; the date too when it is not today. */
export function copyTime(iso: string | undefined, now: Date = new Date()): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return "";
  const hm = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  if (d.toDateString() === now.toDateString()) return hm;
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${hm}`;
}

/** What the session view says while the host's core cannot be reached. */
export function unreachableSentence(host: string, copy: Session | undefined, now: Date = new Date()): string {
  const head = `${host} can't be reached; its runs go on there.`;
  if (!copy) return `${head} No copy of this session is kept here yet: it is copied when a run ends.`;
  const at = copyTime(copy.updated_at ?? copy.created_at, now);
  return at ? `${head} Showing the copy from ${at}.` : `${head} Showing the copy kept here.`;
}

/**
 * The host session a tray item or a notification names (app:open-session
 * carries only its id): asked of each reachable host in turn (a session id
 * is one host's); undefined when none has it.
 */
export async function findHostSession(t: Transport, hosts: readonly HostState[], id: string): Promise<RemoteOpen | undefined> {
  for (const h of hosts) {
    if (!h.reachable) continue;
    try {
      const session = await forHost(t, h.host).api.getSession(id);
      const project = (await t.api.hostProjects(h.host)).find((p) => p.id === session.project_id);
      if (project) return { host: h.host, project, session };
    } catch {
      // Not this host's session (404), or the host went meanwhile: the next.
    }
  }
  return undefined;
}
