import { CalendarClock, Pause, Pencil, Play, Plus, RefreshCw, Trash2, Zap } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { firingLabel, firingNote, formatDue, relative, whenText } from "../../schedules/format";
import type { Firing, Schedule, ScheduleInput } from "../../schedules/types";
import type { WatchBus } from "../../store/bus";
import "./schedules.css";
import type { Transport } from "../../transport/transport";
import type { AgentInfo, Project } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { ScheduleForm } from "./ScheduleForm";
import { agentLabel } from "../../settings/addAgent";
import { statusLook } from "../common/StatusBadge";
import { causeText } from "../common/bannerError";

const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

/** A firing's status badge: the run's real status, or what happened instead. */
export function FiringBadge({ f }: { f: Firing }) {
  const word = firingLabel(f);
  if (word) {
    const tone = f.status === "failed_to_start" ? "fail" : "muted";
    return <span className={`badge tone-${tone}`} title={f.reason}>{word}</span>;
  }
  const l = statusLook(f.status);
  return (
    <span className={`badge tone-${l.tone}`}>
      {l.icon}
      {l.label}
    </span>
  );
}

/**
 * The Schedules view: every schedule with its next due time and its last
 * firing's real status; create, edit, pause, run now, delete; and the
 * history of the selected one, each run linking to its session.
 */
export function SchedulesView({
  t,
  bus,
  projects,
  agents,
  defaultProject,
  onOpenSession,
}: {
  t: Transport;
  /** The watch bus: "schedules.changed" (a firing recorded, a schedule edited anywhere) reloads the list. */
  bus?: Pick<WatchBus, "subscribe">;
  projects: Project[];
  agents: AgentInfo[];
  defaultProject?: string;
  onOpenSession(sessionId: string, projectId: string): void;
}) {
  const [list, setList] = useState<Schedule[]>();
  const [loadErr, setLoadErr] = useState<string>();
  const [note, setNote] = useState<string>();
  const [selected, setSelected] = useState<string>();
  const [history, setHistory] = useState<Firing[]>();
  const [editing, setEditing] = useState<Schedule | "new">();
  const [deleting, setDeleting] = useState<Schedule>();

  const load = useCallback(async () => {
    try {
      setList(await t.api.listSchedules());
      setLoadErr(undefined);
    } catch (e) {
      setLoadErr(causeText(e));
    }
  }, [t]);
  const loadHistory = useCallback(async () => {
    if (!selected) return setHistory(undefined);
    try {
      setHistory(await t.api.scheduleHistory(selected));
    } catch {
      setHistory([]);
    }
  }, [t, selected]);

  useEffect(() => void load(), [load]);
  useEffect(() => void loadHistory(), [loadHistory]);
  // Next and last run follow the watch bus: a firing (or an edit from the
  // CLI) says schedules.changed; a reconnect's snapshot may have missed one.
  useEffect(
    () =>
      bus?.subscribe((m) => {
        if (m.type !== "schedules.changed" && m.type !== "snapshot") return;
        void load();
        void loadHistory();
      }),
    [bus, load, loadHistory],
  );

  // A firing whose run is still going: the watch bus says when it ends
  // (run.changed), and the list and history are read again (no polling).
  const live = useMemo(() => {
    const ids = new Set<string>();
    for (const s of list ?? []) if (s.last_firing?.run_id && !TERMINAL.has(s.last_firing.status)) ids.add(s.last_firing.run_id);
    for (const f of history ?? []) if (f.run_id && !TERMINAL.has(f.status) && f.status !== "failed_to_start") ids.add(f.run_id);
    return [...ids].sort().join(",");
  }, [list, history]);
  useEffect(() => {
    if (!live || !bus) return;
    const ids = new Set(live.split(","));
    return bus.subscribe((m) => {
      if (m.type === "run.changed" && m.run && ids.has(m.run.run_id) && TERMINAL.has(m.run.status)) {
        void load();
        void loadHistory();
      }
    });
  }, [bus, live, load, loadHistory]);

  const act = async (what: string, f: () => Promise<unknown>) => {
    setNote(undefined);
    try {
      await f();
    } catch (e) {
      setNote(`${what}: ${causeText(e)}`);
    }
    await load();
    await loadHistory();
  };

  const save = async (input: ScheduleInput): Promise<string | undefined> => {
    try {
      const s = editing === "new" || !editing ? await t.api.createSchedule(input) : await t.api.updateSchedule(editing.id, input);
      setEditing(undefined);
      setSelected(s.id);
      await load();
      return undefined;
    } catch (e) {
      return causeText(e);
    }
  };

  const runNow = (s: Schedule) =>
    act("Run now", async () => {
      setSelected(s.id);
      const f = await t.api.runSchedule(s.id);
      if (!f.run_id) setNote(`Not started: ${firingNote(f) || f.status}`);
    });

  const projectName = (id: string) => projects.find((p) => p.id === id)?.name ?? "a removed project";
  const current = list?.find((s) => s.id === selected);

  return (
    <section className="schedules" aria-labelledby="schedules-head">
      <header className="schedules-head">
        <CalendarClock size={18} aria-hidden />
        <h1 id="schedules-head">Schedules</h1>
        <span className="spacer" />
        <button type="button" className="icon-btn" onClick={() => void act("Refresh", load)} title="Refresh" aria-label="Refresh schedules">
          <RefreshCw size={16} />
        </button>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")} disabled={projects.length === 0}>
          <Plus size={16} aria-hidden /> New schedule
        </button>
      </header>
      <p className="quiet schedules-intro">Schedules run while the window is closed. Runs missed while the computer slept or was off follow each schedule's choice: run once when back, or skip.</p>
      {note && <p className="control-note" role="alert">{note}</p>}
      {loadErr && <p className="control-note" role="alert">Cannot list schedules: {loadErr}</p>}
      {list === undefined && !loadErr && <p className="quiet" role="status">Loading schedules…</p>}
      {list?.length === 0 && <p className="quiet">No schedules yet. {projects.length === 0 ? "Add a project first." : "Create one to run a prompt on a timetable."}</p>}
      {list && list.length > 0 && (
        <table className="schedule-table">
          <thead>
            <tr>
              <th scope="col">Schedule</th>
              <th scope="col">Next run</th>
              <th scope="col">Last run</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id} className={s.id === selected ? "selected" : ""} data-schedule-id={s.id}>
                <td>
                  <button type="button" className="schedule-name" onClick={() => setSelected(s.id === selected ? undefined : s.id)} aria-expanded={s.id === selected}>
                    <span className="ellipsis">{s.name}</span>
                  </button>
                  <div className="quiet">{whenText(s)} · {agentLabel(agents, s.agent)} · {projectName(s.project_id)}</div>
                </td>
                <td>
                  {!s.enabled ? (
                    <span className="badge tone-muted">Paused</span>
                  ) : s.next_due ? (
                    <>
                      <div>{formatDue(s.next_due, s.timezone)}</div>
                      <div className="quiet">{relative(s.next_due)}</div>
                    </>
                  ) : (
                    <span className="quiet">Not again</span>
                  )}
                </td>
                <td>
                  {s.last_firing ? (
                    <>
                      <FiringBadge f={s.last_firing} />
                      <div className="quiet">{formatDue(s.last_firing.at, s.timezone)}</div>
                    </>
                  ) : (
                    <span className="quiet">Not yet</span>
                  )}
                </td>
                <td className="schedule-actions">
                  <button type="button" className="icon-btn" onClick={() => void runNow(s)} title="Run now" aria-label={`Run ${s.name} now`}>
                    <Zap size={16} />
                  </button>
                  <button
                    type="button"
                    className="icon-btn"
                    onClick={() => void act(s.enabled ? "Pause" : "Resume", () => t.api.updateSchedule(s.id, { enabled: !s.enabled }))}
                    title={s.enabled ? "Pause" : "Resume"}
                    aria-label={`${s.enabled ? "Pause" : "Resume"} ${s.name}`}
                  >
                    {s.enabled ? <Pause size={16} /> : <Play size={16} />}
                  </button>
                  <button type="button" className="icon-btn" onClick={() => setEditing(s)} title="Edit" aria-label={`Edit ${s.name}`}>
                    <Pencil size={16} />
                  </button>
                  <button type="button" className="icon-btn" onClick={() => setDeleting(s)} title="Delete" aria-label={`Delete ${s.name}`}>
                    <Trash2 size={16} />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {current && (
        <History
          s={current}
          firings={history}
          onOpen={(f) => f.session_id && onOpenSession(f.session_id, current.project_id)}
        />
      )}
      {editing && (
        <ScheduleForm
          api={t.api}
          schedule={editing === "new" ? undefined : editing}
          projects={projects}
          agents={agents}
          defaultProject={defaultProject}
          onSave={save}
          onClose={() => setEditing(undefined)}
        />
      )}
      {deleting && (
        <Dialog title="Delete schedule" onClose={() => setDeleting(undefined)}>
          <p>
            Delete <strong>{deleting.name}</strong>? It stops running and its history goes; the runs it made stay in their sessions.
          </p>
          <div className="dialog-foot">
            <span className="spacer" />
            <button type="button" className="btn btn-ghost" onClick={() => setDeleting(undefined)}>Cancel</button>
            <button
              type="button"
              className="btn btn-secondary danger"
              onClick={() => {
                const s = deleting;
                setDeleting(undefined);
                if (s.id === selected) setSelected(undefined);
                void act("Delete", () => t.api.deleteSchedule(s.id));
              }}
            >
              Delete schedule
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

function History({ s, firings, onOpen }: { s: Schedule; firings?: Firing[]; onOpen(f: Firing): void }) {
  return (
    <section className="schedule-history" aria-label={`History of ${s.name}`}>
      <h2>History</h2>
      {firings === undefined ? (
        <p className="quiet" role="status">Loading…</p>
      ) : firings.length === 0 ? (
        <p className="quiet">It has not run yet.</p>
      ) : (
        <ol className="firing-list">
          {firings.map((f) => (
            <li key={f.id} className="firing" data-firing-status={f.status}>
              <FiringBadge f={f} />
              <span>{formatDue(f.manual ? f.at : f.due_at, s.timezone)}</span>
              <span className="quiet firing-note">{firingNote(f)}</span>
              <span className="spacer" />
              {f.run_id && f.session_id && (
                <button type="button" className="btn btn-ghost" onClick={() => onOpen(f)}>Open run</button>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
