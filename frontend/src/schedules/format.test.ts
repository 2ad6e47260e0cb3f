import { describe, expect, it } from "vitest";
import { firingLabel, firingNote, relative, whenText } from "./format";
import type { Firing, Schedule } from "./types";

const base: Firing = { id: 1, schedule_id: "s", due_at: "2026-01-01T09:00:00Z", at: "2026-01-01T09:00:00Z", outcome: "fired", status: "completed" };

describe("schedule formatting", () => {
  it("says what happened to a firing truthfully", () => {
    expect(firingLabel(base)).toBeUndefined(); // a run status: the run's badge
    expect(firingLabel({ ...base, outcome: "fired", status: "failed_to_start", reason: "Demo agent not found" })).toBe("Failed to start");
    expect(firingNote({ ...base, status: "failed_to_start", reason: "Demo agent not found" })).toBe("Demo agent not found");
    expect(firingNote({ ...base, catch_up: true, missed: 3 })).toBe("Catch-up for 3 missed");
    expect(firingNote({ ...base, manual: true })).toBe("Run now");
    expect(firingNote({ ...base, status: "failed", run_error: "boom" })).toBe("boom");
    expect(firingLabel({ ...base, outcome: "skipped", status: "skipped" })).toBe("Skipped");
  });
  it("says when a schedule runs", () => {
    const s = { phrase: "every weekday at 9:00", cron: "0 9 * * 1-5", timezone: "UTC" } as Schedule;
    expect(whenText(s)).toBe("every weekday at 9:00");
    expect(whenText({ ...s, phrase: "" })).toBe("0 9 * * 1-5");
  });
  it("says how far off a due time is", () => {
    const now = new Date("2026-01-01T09:00:00Z");
    expect(relative("2026-01-01T09:30:00Z", now)).toBe("in 30 min");
    expect(relative("2026-01-01T12:00:00Z", now)).toBe("in 3 h");
    expect(relative("2026-01-05T09:00:00Z", now)).toBe("in 4 days");
    expect(relative("2026-01-01T08:00:00Z", now)).toBe("due now");
  });
});
