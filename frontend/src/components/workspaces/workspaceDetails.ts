// One read of each workspace's detail for the whole window
// (docs/ARCHITECTURE.md §Workspaces): the header's chip and the sidebar
// group's chip of one worktree share it, so two chips cost one
// GET /api/workspaces/{id}. It is read when the first chip shows the
// workspace, again when the workspace itself changed (workspace.changed
// gives it a new state), when a run of one of the sessions the chips show
// ends (its files changed) and when the watch stream connects again.
// Nothing polls.
import type { WatchMessage, Workspace, WorkspaceDetail } from "../../transport/types";
import { isTerminalStatus } from "../../transport/types";

interface Entry {
  detail?: WorkspaceDetail;
  /** The workspace as last read: a different one is read again. */
  seen: string;
  /** Each watcher's sessions: a run of any of them ending reads again. */
  sessions: Map<symbol, readonly string[]>;
  /** Bumped per read: an older read's answer is dropped. */
  reads: number;
}

export class WorkspaceDetails {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly read: (id: string) => Promise<WorkspaceDetail>) {}

  /** The detail of a workspace being watched, once read. */
  get(id: string): WorkspaceDetail | undefined {
    return this.entries.get(id)?.detail;
  }

  /** Calls cb whenever any detail changed (useSyncExternalStore). */
  subscribe(cb: () => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /**
   * A chip shows w for sessionIds: read it unless the same workspace is
   * read already. Returns the chip's leave; the last to leave forgets it.
   */
  watch(w: Workspace, sessionIds: readonly string[]): () => void {
    const key = Symbol(w.id);
    const seen = JSON.stringify(w);
    let e = this.entries.get(w.id);
    if (!e) {
      e = { seen: "", sessions: new Map(), reads: 0 };
      this.entries.set(w.id, e);
    }
    e.sessions.set(key, sessionIds);
    if (e.seen !== seen) {
      e.seen = seen;
      this.load(w.id, e);
    }
    const entry = e;
    return () => {
      entry.sessions.delete(key);
      if (entry.sessions.size === 0 && this.entries.get(w.id) === entry) this.entries.delete(w.id);
    };
  }

  /** The watch stream's messages: a run of a watched session ended, or the stream came back. */
  heard(m: WatchMessage): void {
    if (m.type === "snapshot") {
      // Connected again: what changed meanwhile was not heard.
      for (const [id, e] of this.entries) this.load(id, e);
      return;
    }
    if (m.type !== "run.changed" || !m.run || !isTerminalStatus(m.run.status)) return;
    const sid = m.run.session_id;
    for (const [id, e] of this.entries) {
      for (const list of e.sessions.values()) {
        if (list.includes(sid)) {
          this.load(id, e);
          break;
        }
      }
    }
  }

  private load(id: string, e: Entry): void {
    const n = ++e.reads;
    const settle = (d: WorkspaceDetail | undefined) => {
      if (e.reads !== n || this.entries.get(id) !== e) return;
      e.detail = d;
      for (const cb of this.listeners) cb();
    };
    this.read(id).then(settle, () => settle(undefined));
  }
}
