// The window's one source of truth for "what is going on anywhere"
// (docs/ARCHITECTURE.md "The watch bus"): the active runs with their
// status and pending prompts, the session list's version, agent health
// changes. One subscription per window; nothing polls.
import type { Transport } from "../transport/transport";
import type { Conflicts, HostState, RunInfo, RunState, WatchMessage } from "../transport/types";

export type BusListener = (m: WatchMessage) => void;

export class WatchBus {
  private readonly runs = new Map<string, RunState>();
  private readonly listeners = new Set<BusListener>();
  private stopWatch: (() => void) | null = null;
  private list: RunInfo[] = [];
  /** The remote hosts, their records and whether each answers (docs/ARCHITECTURE.md §Hosts). */
  private readonly hostStates = new Map<string, HostState>();
  /** The session list's version as of the last message (0: none yet). */
  sessionsVersion = 0;
  /** The conflict radar's answers with an overlap, by project (docs/ARCHITECTURE.md §Conflict radar). */
  private readonly overlaps = new Map<string, Conflicts>();
  /** False until the first snapshot, and while the bus is unreachable. */
  connected = false;

  constructor(private readonly t: Transport) {}

  /** Starts following the bus (idempotent); false when the transport has none. */
  start(): boolean {
    if (this.stopWatch) return true;
    if (!this.t.watchBus) return false;
    this.stopWatch = this.t.watchBus({
      onMessage: (m) => this.apply(m),
      onError: () => {
        if (!this.connected) return;
        this.connected = false;
        this.emit({ seq: 0, type: "goodbye", reason: "disconnected" });
      },
    });
    return true;
  }

  stop(): void {
    this.stopWatch?.();
    this.stopWatch = null;
  }

  /** Every message after the bus state has taken it in; a snapshot replaces it. */
  subscribe(cb: BusListener): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  run(id: string): RunState | undefined {
    return this.runs.get(id);
  }

  /** The remote hosts, by id, and whether each answers. */
  hosts(): HostState[] {
    return [...this.hostStates.values()].sort((a, b) => a.host.localeCompare(b.host));
  }

  /** How many active runs are this machine's (quitting keeps or stops those only; another host's go on there). */
  localActive(): number {
    let n = 0;
    for (const r of this.runs.values()) if (!r.host) n++;
    return n;
  }

  /** The active runs as RunInfo (what the sidebar markers read), oldest first. */
  active(): RunInfo[] {
    return this.list;
  }

  /** The project's latest radar answer with an overlap, if any. */
  conflicts(projectId: string): Conflicts | undefined {
    return this.overlaps.get(projectId);
  }

  private apply(m: WatchMessage): void {
    if (m.type === "snapshot") {
      this.overlaps.clear();
      for (const c of m.snapshot?.conflicts ?? []) this.overlaps.set(c.project_id, c);
    } else if (m.type === "conflicts.changed" && m.conflicts) {
      if (m.conflicts.overlaps?.length) this.overlaps.set(m.conflicts.project_id, m.conflicts);
      else this.overlaps.delete(m.conflicts.project_id);
    }
    switch (m.type) {
      case "snapshot":
        this.runs.clear();
        for (const r of m.snapshot?.runs ?? []) this.runs.set(r.run_id, r);
        this.sessionsVersion = m.snapshot?.sessions_version ?? 0;
        this.connected = true;
        this.hostStates.clear();
        for (const h of m.snapshot?.hosts ?? []) this.hostStates.set(h.host, h);
        break;
      case "host.changed":
        // One message for a host added, changed, removed or reached (docs/ARCHITECTURE.md §Hosts).
        if (m.host_state?.removed) this.hostStates.delete(m.host_state.host);
        else if (m.host_state) this.hostStates.set(m.host_state.host, m.host_state);
        break;
      case "run.changed":
        if (!m.run) return;
        if (isTerminal(m.run.status)) this.runs.delete(m.run.run_id);
        else this.runs.set(m.run.run_id, m.run);
        break;
      case "session.changed":
        if (m.session) this.sessionsVersion = m.session.sessions_version;
        break;
    }
    if (m.type === "snapshot" || m.type === "run.changed") {
      this.list = [...this.runs.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0)).map(runInfo);
    }
    this.emit(m);
  }

  private emit(m: WatchMessage): void {
    this.listeners.forEach((cb) => cb(m));
  }
}

const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** A bus run state in the shape of GET /api/runs (RunInfo). */
export function runInfo(r: RunState): RunInfo {
  return {
    id: r.run_id,
    session_id: r.session_id,
    project_id: r.project_id,
    agent: r.agent,
    status: r.status,
    last_seq: r.last_seq,
    terminal: isTerminal(r.status),
    pending_approval_id: r.pending?.kind === "approval" ? r.pending.id : undefined,
    pending_clarify_id: r.pending?.kind === "clarify" ? r.pending.id : undefined,
    error: r.error,
    created_at: r.created_at,
    started_at: r.started_at,
    ended_at: r.ended_at,
  };
}
