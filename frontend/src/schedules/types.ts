// Schedules as the API returns them (backend/schedule, backend/service/schedules.go).

export type ScheduleTarget = "fresh" | "continue";
export type MissedPolicy = "run_once" | "skip";

export interface Firing {
  id: number;
  schedule_id: string;
  due_at: string;
  at: string;
  outcome: "starting" | "fired" | "skipped" | "missed" | "failed_to_start";
  run_id?: string;
  session_id?: string;
  missed?: number;
  catch_up?: boolean;
  manual?: boolean;
  reason?: string;
  run_status?: string;
  run_error?: string;
  /** The truthful word: completed, failed, running, queued, skipped, missed, failed_to_start, … */
  status: string;
}

export interface Schedule {
  id: string;
  name: string;
  prompt: string;
  agent: string;
  model?: string;
  project_id: string;
  phrase?: string;
  cron?: string;
  at?: string;
  timezone: string;
  target: ScheduleTarget;
  session_id?: string;
  missed: MissedPolicy;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  next_due?: string;
  last_firing?: Firing;
}

export interface ScheduleInput {
  name?: string;
  prompt?: string;
  agent?: string;
  model?: string;
  project_id?: string;
  when?: string;
  timezone?: string;
  target?: ScheduleTarget;
  missed?: MissedPolicy;
  enabled?: boolean;
}

export interface SchedulePreview {
  cron?: string;
  at?: string;
  timezone: string;
  next: string[];
}
