// One transport seam for a session on another host (docs/ARCHITECTURE.md
// §Remote cores, "The window"): the same API, every path under
// /api/hosts/{host}/…, chosen once where the session is opened — never an
// `if remote` in the components. The watch bus stays this core's (it
// carries the host's runs tagged `host`, and rings their doorbells).
import type { Transport } from "./transport";

/** /api/REST of a host's core as this core proxies it; other paths as they are. */
export function hostPath(host: string, path: string): string {
  if (!host || !path.startsWith("/api/")) return path;
  return `/api/hosts/${encodeURIComponent(host)}/${path.slice("/api/".length)}`;
}

/**
 * The transport t bound to a host: its API calls, event streams and uploads
 * go to that host's core. "" (this computer) gives t itself.
 */
export function forHost(t: Transport, host: string | undefined, name?: string): Transport {
  if (!host || (t.host === host && (!name || t.hostName === name))) return t;
  if (!t.forHost) throw new Error(`This window cannot reach the host ${name || host}.`);
  return t.forHost(host, name);
}

/**
 * A host's files are not this computer's: a native picker, a drop from the
 * file manager or "show in folder" would hand the host a path it does not
 * have. Uploads (the bytes, stored on the host) stay.
 */
export function hostDesktop<D extends object>(d: D | undefined): D | undefined {
  if (!d) return undefined;
  return { ...d, pickFiles: undefined, showFolder: undefined };
}
