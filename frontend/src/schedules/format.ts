// How schedules read to a person: times in the schedule's zone, the firing
// status in words. Pure, so it is unit-tested.
import type { Firing, Schedule } from "./types";

/** The browser's IANA zone: what a new schedule is read in. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "Local";
  } catch {
    return "Local";
  }
}

function zoneOpt(tz: string | undefined): string | undefined {
  return !tz || tz === "Local" ? undefined : tz;
}

/** "Mon 7 Dec, 09:00" in zone tz (with the zone's short name when it is not the browser's). */
export function formatDue(iso: string | undefined, tz?: string, now = new Date()): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  const timeZone = zoneOpt(tz);
  const opts: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone };
  if (d.getFullYear() !== now.getFullYear()) opts.year = "numeric";
  if (timeZone && timeZone !== browserZone()) opts.timeZoneName = "short";
  try {
    return new Intl.DateTimeFormat(undefined, opts).format(d);
  } catch {
    return d.toLocaleString();
  }
}

/** "in 3 h", "in 12 min", "overdue" — how far off a due time is. */
export function relative(iso: string | undefined, now = new Date()): string {
  if (!iso) return "";
  const ms = new Date(iso).getTime() - now.getTime();
  if (Number.isNaN(ms)) return "";
  if (ms < -60_000) return "due now";
  if (ms < 60_000) return "in under a minute";
  const min = Math.round(ms / 60_000);
  if (min < 60) return `in ${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `in ${h} h`;
  return `in ${Math.round(h / 24)} days`;
}

/** What the schedule says about when it runs. */
export function whenText(s: Schedule): string {
  if (s.phrase) return s.phrase;
  if (s.at) return `once on ${formatDue(s.at, s.timezone)}`;
  return s.cron ?? "";
}

const FIRING_WORDS: Record<string, string> = {
  skipped: "Skipped",
  missed: "Missed",
  failed_to_start: "Failed to start",
  starting: "Starting",
};

/** The status word of a firing; run statuses use the run's own badge. */
export function firingLabel(f: Firing): string | undefined {
  return FIRING_WORDS[f.status];
}

/** The sentence under a firing: why it was skipped, what a catch-up stood for, … */
export function firingNote(f: Firing): string {
  const parts: string[] = [];
  if (f.manual) parts.push("Run now");
  if (f.catch_up) parts.push(`Catch-up for ${f.missed ?? 1} missed`);
  if (f.reason) parts.push(f.reason);
  else if (f.status === "failed" && f.run_error) parts.push(f.run_error);
  return parts.join(" · ");
}
