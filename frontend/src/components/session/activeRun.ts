// Which run of a session the header, Stop and the inspector follow
// (docs/ARCHITECTURE.md §Session view): the one running or waiting for the
// person, not a follow-up queued behind it.
import type { Message } from "../../transport/types";
import { isTerminalStatus } from "../../transport/types";
import { withdrawn } from "./transcriptItems";

export interface SessionRuns {
  /** The run the header follows: running or waiting, else the newest queued, else the latest. */
  activeId?: string;
  /** The newest run of the session (follow-ups queue behind it). */
  latestId?: string;
  /** Runs waiting their turn, oldest first. */
  queued: string[];
}

/** statusOf gives a run's live status, or undefined when it is not followed. */
export function sessionRuns(messages: Message[], statusOf: (runId: string) => string | undefined): SessionRuns {
  const ids: string[] = [];
  const saved = new Map<string, string | undefined>();
  // A follow-up cancelled or edited before it started is no run of the
  // session's: the header keeps the run before it (issue 23.11).
  const gone = new Set(messages.flatMap((m) => (m.run_id && withdrawn(m, undefined) ? [m.run_id] : [])));
  for (const m of messages) {
    if (!m.run_id || gone.has(m.run_id)) continue;
    if (!saved.has(m.run_id)) ids.push(m.run_id);
    const s = m.run?.status;
    if (s || !saved.has(m.run_id)) saved.set(m.run_id, s ?? saved.get(m.run_id));
  }
  const status = (id: string) => statusOf(id) ?? saved.get(id);
  const queued = ids.filter((id) => status(id) === "queued");
  const working = ids.find((id) => {
    const s = status(id);
    return !!s && s !== "idle" && s !== "queued" && !isTerminalStatus(s);
  });
  const latestId = ids[ids.length - 1];
  return { activeId: working ?? queued[0] ?? latestId, latestId, queued };
}
