import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { RunState, WatchMessage } from "../transport/types";
import { SessionQuota } from "./SessionQuota";
import { nextChange, quotaFor, STALE_AFTER_MS, statusChanged } from "./sessionQuota";
import type { QuotaLine } from "./types";

const q = (vendor: string, window: string, extra: Partial<QuotaLine> = {}): QuotaLine => ({
  vendor,
  window,
  seen_at: "2026-11-27T09:00:00Z",
  line: `${vendor} ${window}`,
  ...extra,
});

const runMsg = (run_id: string, status: string, session_id = "ses_1"): WatchMessage => ({
  seq: 1,
  type: "run.changed",
  run: { run_id, session_id, agent: "codex", status } as RunState,
});

describe("quotaFor", () => {
  it.each([
    ["other vendors left out", [q("claude", "five_hour"), q("codex", "primary")], "codex", ["codex primary"]],
    ["a reached limit first", [q("claude", "five_hour", { used_percent: 90 }), q("claude", "seven_day", { limited: true })], "claude", ["claude seven_day", "claude five_hour"]],
    ["the fullest window first", [q("codex", "primary", { used_percent: 20 }), q("codex", "secondary", { used_percent: 72 })], "codex", ["codex secondary", "codex primary"]],
    ["nothing for an agent without a window", [q("codex", "primary")], "demo", []],
  ])("%s", (_, lines, agent, want) => {
    expect(quotaFor(lines, agent).map((l) => l.line)).toEqual(want);
  });
});

describe("statusChanged", () => {
  it.each<[string, WatchMessage[], boolean[]]>([
    ["a run of the session changes status", [runMsg("r1", "running"), runMsg("r1", "completed")], [true, true]],
    ["the same status again is no change", [runMsg("r1", "running"), runMsg("r1", "running")], [true, false]],
    ["another session's run", [runMsg("r2", "running", "ses_2")], [false]],
    [
      "a snapshot seeds, then a changed status counts",
      [
        { seq: 1, type: "snapshot", snapshot: { runs: [runMsg("r1", "running").run!] } } as WatchMessage,
        { seq: 2, type: "snapshot", snapshot: { runs: [runMsg("r1", "parked").run!] } } as WatchMessage,
      ],
      [false, true],
    ],
    ["other messages", [{ seq: 1, type: "agents.changed" }], [false]],
  ])("%s", (_, msgs, want) => {
    const seen = new Map<string, string>();
    expect(msgs.map((m) => statusChanged(m, "ses_1", seen))).toEqual(want);
  });
});

describe("nextChange", () => {
  const now = Date.parse("2026-11-27T09:00:00Z");
  const at = (ms: number) => new Date(now + ms).toISOString();
  it.each<[string, QuotaLine[], number | undefined]>([
    ["a reset ahead comes first", [q("codex", "primary", { resets_at: (now + 60_000) / 1000, seen_at: at(0) })], 60_000],
    ["a fresh figure turns stale", [q("codex", "primary", { seen_at: at(-60_000) })], STALE_AFTER_MS - 60_000],
    ["the earliest of several", [q("codex", "primary", { seen_at: at(0), resets_at: (now + 3_600_000) / 1000 }), q("codex", "secondary", { seen_at: at(-STALE_AFTER_MS + 5_000) })], 5_000],
    ["a reset past and a stale figure: nothing ahead", [q("codex", "primary", { resets_at: (now - 1000) / 1000, seen_at: at(-STALE_AFTER_MS - 1) })], undefined],
    ["a garbled seen_at is ignored", [q("codex", "primary", { seen_at: "yesterday" })], undefined],
    ["no lines", [], undefined],
  ])("%s", (_, lines, want) => {
    expect(nextChange(lines, now)).toBe(want);
  });
});

describe("SessionQuota", () => {
  it("asks again once the reset it shows has passed, not before", async () => {
    vi.useFakeTimers();
    try {
      const reset = Date.now() + 60_000;
      const api = { quota: vi.fn(async (): Promise<QuotaLine[]> => [q("codex", "primary", { limited: true, resets_at: reset / 1000, seen_at: new Date().toISOString() })]) };
      render(<SessionQuota sessionId="ses_1" agent="codex" api={api} />);
      await act(async () => {});
      expect(api.quota).toHaveBeenCalledTimes(1);
      await act(async () => vi.advanceTimersByTime(59_000));
      expect(api.quota).toHaveBeenCalledTimes(1);
      await act(async () => vi.advanceTimersByTime(2_000));
      expect(api.quota).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the agent's window and re-reads it when a run of the session changes status", async () => {
    const listeners = new Set<(m: WatchMessage) => void>();
    const bus = { subscribe: (cb: (m: WatchMessage) => void) => (listeners.add(cb), () => listeners.delete(cb)) };
    const answers = [
      [q("codex", "primary", { used_percent: 40, line: "Codex: 40 % of the 5-hour window, resets 14:20" }), q("claude", "five_hour")],
      [q("codex", "primary", { limited: true, line: "Codex: 5-hour limit reached, resets 14:20" })],
    ];
    const api = { quota: vi.fn(async (): Promise<QuotaLine[]> => answers[Math.min(api.quota.mock.calls.length - 1, 1)]!) };
    render(<SessionQuota sessionId="ses_1" agent="codex" api={api} bus={bus} />);
    expect((await screen.findByRole("status")).textContent).toContain("Codex: 40 % of the 5-hour window, resets 14:20");
    // Another session's run and a message that is not a status change read nothing.
    act(() => listeners.forEach((cb) => cb(runMsg("r9", "running", "ses_2"))));
    act(() => listeners.forEach((cb) => cb({ seq: 3, type: "agents.changed" })));
    expect(api.quota).toHaveBeenCalledTimes(1);
    act(() => listeners.forEach((cb) => cb(runMsg("r1", "parked"))));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("limit reached"));
    expect(screen.getByRole("status").className).toContain("tone-fail");
    expect(api.quota).toHaveBeenCalledTimes(2);
  });

  it("shows nothing for an agent with no window, or when the read fails", async () => {
    const none = { quota: vi.fn(async () => [q("claude", "five_hour")]) };
    const { container, unmount } = render(<SessionQuota sessionId="ses_1" agent="demo" api={none} />);
    await waitFor(() => expect(none.quota).toHaveBeenCalled());
    expect(container.textContent).toBe("");
    unmount();
    const failing = { quota: vi.fn(async () => Promise.reject(new Error("503"))) };
    const r = render(<SessionQuota sessionId="ses_1" agent="codex" api={failing} />);
    await waitFor(() => expect(failing.quota).toHaveBeenCalled());
    expect(r.container.textContent).toBe("");
  });
});
