// The remote hosts' wire shapes (backend/journal Host; docs/ARCHITECTURE.md §Hosts).

/** A remote host as GET /api/hosts lists it. */
export interface Host {
  id: string;
  /** user@host or a Host alias of ~/.ssh/config */
  target: string;
  /** ready · running · unreachable */
  status: string;
  os: string;
  arch: string;
  /** The Hermes Desk version started there ("" before the first start). */
  version: string;
  /** Why the last start failed, in words. */
  note: string;
  added_at: string;
  last_seen?: string;
}
