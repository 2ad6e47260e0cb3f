import { useEffect, useId, useState, type FormEvent } from "react";
import { browserZone, formatDue } from "../../schedules/format";
import type { MissedPolicy, Schedule, ScheduleInput, SchedulePreview, ScheduleTarget } from "../../schedules/types";
import type { AgentInfo, Project } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { causeText } from "../common/bannerError";

// Phrases that work (backend/schedule/phrase.go Examples says the same in its answers).
const EXAMPLES = ["every weekday at 9:00", "every 2 hours", "every monday at 8:30", "in 10 minutes", "tomorrow at 9am"];

export interface ScheduleFormApi {
  previewSchedule(when: string, timezone: string): Promise<SchedulePreview>;
}

/** Create or edit a schedule, with the next five firings previewed as the person types. */
export function ScheduleForm({
  api,
  schedule,
  projects,
  agents,
  defaultProject,
  onSave,
  onClose,
}: {
  api: ScheduleFormApi;
  schedule?: Schedule;
  projects: Project[];
  agents: AgentInfo[];
  defaultProject?: string;
  /** Resolves an error message when it was not saved. */
  onSave(input: ScheduleInput): Promise<string | undefined>;
  onClose(): void;
}) {
  const id = useId();
  const initialWhen = schedule ? schedule.phrase || schedule.cron || "" : "";
  const [name, setName] = useState(schedule?.name ?? "");
  const [prompt, setPrompt] = useState(schedule?.prompt ?? "");
  // Only a project with a folder can run anything (the Imported place has none).
  const runnable = projects.filter((p) => p.workspace || p.id === schedule?.project_id);
  const [projectId, setProjectId] = useState(schedule?.project_id ?? (runnable.some((p) => p.id === defaultProject) ? defaultProject : undefined) ?? runnable[0]?.id ?? "");
  const usable = agents.filter((a) => a.ok || a.name === schedule?.agent);
  const [agent, setAgent] = useState(schedule?.agent ?? (usable.find((a) => a.name !== "demo") ?? usable[0])?.name ?? "");
  const [when, setWhen] = useState(initialWhen);
  const [timezone, setTimezone] = useState(schedule?.timezone ?? browserZone());
  const [target, setTarget] = useState<ScheduleTarget>(schedule?.target ?? "fresh");
  const [missed, setMissed] = useState<MissedPolicy>(schedule?.missed ?? "run_once");
  const [preview, setPreview] = useState<{ next?: string[]; error?: string }>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // The preview follows what is typed, a moment after typing stops.
  useEffect(() => {
    if (!when.trim()) {
      setPreview({});
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api.previewSchedule(when, timezone).then(
        (p) => live && setPreview({ next: p.next }),
        (e: unknown) => live && setPreview({ error: causeText(e) }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, when, timezone]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const input: ScheduleInput = { name, prompt, agent, project_id: projectId, target, missed };
    if (!schedule || when !== initialWhen) input.when = when;
    if (!schedule || timezone !== schedule.timezone) input.timezone = timezone;
    const err = await onSave(input);
    setBusy(false);
    if (err) setError(err);
  };

  return (
    <Dialog title={schedule ? "Edit schedule" : "New schedule"} onClose={onClose} wide>
      <form className="schedule-form" onSubmit={(e) => void submit(e)} aria-label={schedule ? "Edit schedule" : "New schedule"}>
        <label htmlFor={`${id}-prompt`} className="field-label">Prompt</label>
        <textarea id={`${id}-prompt`} className="input" rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder="Summarise yesterday's commits and open issues" required />

        <label htmlFor={`${id}-when`} className="field-label">When</label>
        <input id={`${id}-when`} className="input" value={when} onChange={(e) => setWhen(e.target.value)} placeholder="every weekday at 9:00" aria-describedby={`${id}-preview`} autoComplete="off" />
        <div className="schedule-examples" aria-label="Examples">
          {EXAMPLES.map((x) => (
            <button key={x} type="button" className="chip chip-btn" onClick={() => setWhen(x)}>{x}</button>
          ))}
        </div>
        <div id={`${id}-preview`} className="schedule-preview" aria-live="polite">
          {preview.error ? (
            <p className="control-note" role="alert">{preview.error}</p>
          ) : preview.next ? (
            preview.next.length === 0 ? (
              <p className="quiet">It would never run again.</p>
            ) : (
              <>
                <span className="field-label">Next runs</span>
                <ol className="preview-list" aria-label="Next runs">
                  {preview.next.map((t) => (
                    <li key={t}>{formatDue(t, timezone)}</li>
                  ))}
                </ol>
              </>
            )
          ) : (
            <p className="quiet">A phrase like the ones above, or a cron expression (minute hour day month weekday).</p>
          )}
        </div>

        <div className="schedule-grid">
          <div>
            <label htmlFor={`${id}-name`} className="field-label">Name</label>
            <input id={`${id}-name`} className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="Defaults to the prompt's first line" />
          </div>
          <div>
            <label htmlFor={`${id}-tz`} className="field-label">Time zone</label>
            <input id={`${id}-tz`} className="input" value={timezone} onChange={(e) => setTimezone(e.target.value)} />
          </div>
          <div>
            <label htmlFor={`${id}-project`} className="field-label">Project</label>
            <select id={`${id}-project`} className="input" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              {runnable.map((p) => (
                <option key={p.id} value={p.id}>{p.name}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-agent`} className="field-label">Agent</label>
            <select id={`${id}-agent`} className="input" value={agent} onChange={(e) => setAgent(e.target.value)}>
              {usable.length === 0 && <option value="">No agent is ready</option>}
              {usable.map((a) => (
                <option key={a.name} value={a.name}>{a.display_name || a.name}</option>
              ))}
            </select>
          </div>
        </div>

        <fieldset className="field">
          <legend>Each run goes to</legend>
          <Choice<ScheduleTarget> name={`${id}-target`} value={target} onChange={setTarget} options={[["fresh", "A new session"], ["continue", "One continuing session"]] as [ScheduleTarget, string][]} />
        </fieldset>
        <fieldset className="field">
          <legend>If runs were missed (computer asleep or off)</legend>
          <Choice<MissedPolicy> name={`${id}-missed`} value={missed} onChange={setMissed} options={[["run_once", "Run once when back"], ["skip", "Skip them"]] as [MissedPolicy, string][]} />
        </fieldset>

        {error && <p className="control-note" role="alert">{error}</p>}
        <div className="dialog-foot">
          <span className="spacer" />
          <button type="button" className="btn btn-ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{schedule ? "Save" : "Create schedule"}</button>
        </div>
      </form>
    </Dialog>
  );
}

function Choice<T extends string>({ name, value, onChange, options }: { name: string; value: T; onChange(v: T): void; options: [T, string][] }) {
  return (
    <div className="segmented" role="radiogroup">
      {options.map(([v, label]) => (
        <label key={v} className={value === v ? "on" : ""}>
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} className="sr-only" />
          {label}
        </label>
      ))}
    </div>
  );
}
