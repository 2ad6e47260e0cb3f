import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Firing, Schedule } from "../../schedules/types";
import type { BusListener } from "../../store/bus";
import { ApiClient, type RawResponse } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import { SchedulesView } from "./Schedules";

const failed: Firing = {
  id: 2, schedule_id: "sch_1", due_at: "2026-01-02T09:00:00Z", at: "2026-01-02T09:00:01Z", outcome: "fired",
  run_id: "run_2", session_id: "ses_2", status: "failed_to_start", reason: "Claude Code is not installed.",
};
const done: Firing = { id: 1, schedule_id: "sch_1", due_at: "2026-01-01T09:00:00Z", at: "2026-01-01T09:00:01Z", outcome: "fired", run_id: "run_1", session_id: "ses_1", status: "completed", catch_up: true, missed: 3 };
const sched: Schedule = {
  id: "sch_1", name: "Standup notes", prompt: "notes", agent: "claude", project_id: "prj_1", phrase: "every weekday at 9:00",
  cron: "0 9 * * 1-5", timezone: "UTC", target: "fresh", missed: "run_once", enabled: true, created_at: "", updated_at: "",
  next_due: "2099-01-05T09:00:00Z", last_firing: failed,
};

function fake() {
  const calls: string[] = [];
  const state = { list: [sched] };
  const api = new ApiClient(async (m, p, b): Promise<RawResponse> => {
    calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (m === "GET" && p === "/api/schedules") return { status: 200, body: JSON.stringify(state.list) };
    if (m === "GET" && p === "/api/schedules/sch_1/history") return { status: 200, body: JSON.stringify([failed, done]) };
    if (m === "GET" && p.startsWith("/api/schedules/preview")) {
      if (p.includes("blue")) return { status: 400, body: '{"error":{"code":"bad_request","message":"\\"every blue moon\\" is not a phrase Hermes Desk knows"}}' };
      return { status: 200, body: JSON.stringify({ cron: "0 */2 * * *", timezone: "UTC", next: ["2099-01-01T00:00:00Z", "2099-01-01T02:00:00Z", "2099-01-01T04:00:00Z", "2099-01-01T06:00:00Z", "2099-01-01T08:00:00Z"] }) };
    }
    if (m === "POST" && p === "/api/schedules") return { status: 201, body: JSON.stringify({ ...sched, id: "sch_2" }) };
    if (m === "DELETE") return { status: 204, body: "" };
    return { status: 404, body: '{"error":{"code":"not_found","message":"no"}}' };
  });
  const t = { kind: "http", api, watchRun: vi.fn(() => () => {}) } as unknown as Transport;
  return { t, calls, state };
}

const projects = [{ id: "prj_1", name: "site", workspace: "/w" }];
const agents = [{ name: "claude", display_name: "Claude Code", ok: true }];

describe("schedules view", () => {
  it("shows the last firing's real status and the history with its reasons", async () => {
    const f = fake();
    const open = vi.fn();
    render(<SchedulesView t={f.t} projects={projects} agents={agents} onOpenSession={open} />);
    const row = (await screen.findByText("Standup notes")).closest("tr")!;
    expect(within(row).getByText("Failed to start")).toBeTruthy();
    expect(within(row).getByText(/every weekday at 9:00/)).toBeTruthy();
    await userEvent.click(within(row).getByRole("button", { name: "Standup notes" }));
    const hist = await screen.findByRole("region", { name: "History of Standup notes" });
    await waitFor(() => expect(within(hist).getAllByRole("listitem")).toHaveLength(2));
    expect(within(hist).getByText("Claude Code is not installed.")).toBeTruthy();
    expect(within(hist).getByText("Catch-up for 3 missed")).toBeTruthy();
    await userEvent.click(within(hist).getAllByRole("button", { name: "Open run" })[1]!);
    expect(open).toHaveBeenCalledWith("ses_1", "prj_1");
  }, 20_000);

  it("previews the next five runs and explains a phrase it cannot read", async () => {
    const f = fake();
    render(<SchedulesView t={f.t} projects={projects} agents={agents} onOpenSession={() => {}} />);
    await userEvent.click(await screen.findByRole("button", { name: /New schedule/ }));
    const when = screen.getByLabelText("When");
    await userEvent.click(when);
    await userEvent.paste("every 2 hours");
    const list = await screen.findByRole("list", { name: "Next runs" }, { timeout: 5000 });
    expect(within(list).getAllByRole("listitem")).toHaveLength(5);
    await userEvent.clear(when);
    await userEvent.paste("every blue moon");
    expect((await screen.findByRole("alert", {}, { timeout: 5000 })).textContent).toContain("not a phrase");
  }, 20_000);

  it("follows the watch bus: a firing elsewhere updates next and last run without Refresh", async () => {
    const f = fake();
    const listeners = new Set<BusListener>();
    const bus = { subscribe: (cb: BusListener) => (listeners.add(cb), () => listeners.delete(cb)) };
    render(<SchedulesView t={f.t} bus={bus} projects={projects} agents={agents} onOpenSession={() => {}} />);
    const row = (await screen.findByText("Standup notes")).closest("tr")!;
    expect(within(row).getByText("Failed to start")).toBeTruthy();
    f.state.list = [{ ...sched, next_due: "2099-01-06T09:00:00Z", last_firing: done }];
    act(() => listeners.forEach((cb) => cb({ seq: 7, type: "run.changed" }))); // not about schedules: no reload
    act(() => listeners.forEach((cb) => cb({ seq: 8, type: "schedules.changed" })));
    await waitFor(() => expect(within(row).getByText("Completed")).toBeTruthy());
    expect(f.calls.filter((c) => c === "GET /api/schedules")).toHaveLength(2);
  }, 20_000);

  it("reads the list again when a firing's run ends, as the watch bus says (run.changed)", async () => {
    const f = fake();
    const running: Firing = { ...done, id: 3, run_id: "run_3", status: "running" };
    f.state.list = [{ ...sched, last_firing: running }];
    const listeners = new Set<BusListener>();
    const bus = { subscribe: (cb: BusListener) => (listeners.add(cb), () => listeners.delete(cb)) };
    render(<SchedulesView t={f.t} bus={bus} projects={projects} agents={agents} onOpenSession={() => {}} />);
    await screen.findByText("Standup notes");
    const lists = () => f.calls.filter((c) => c === "GET /api/schedules").length;
    await waitFor(() => expect(listeners.size).toBe(2));
    const run = (run_id: string, status: string) => ({ run_id, session_id: "ses_1", agent: "claude", status, last_seq: 9, created_at: "" }) as never;
    act(() => listeners.forEach((cb) => cb({ seq: 1, type: "run.changed", run: run("run_3", "awaiting_approval") })));
    act(() => listeners.forEach((cb) => cb({ seq: 2, type: "run.changed", run: run("run_other", "completed") })));
    expect(lists()).toBe(1);
    f.state.list = [{ ...sched, last_firing: done }];
    act(() => listeners.forEach((cb) => cb({ seq: 3, type: "run.changed", run: run("run_3", "completed") })));
    await waitFor(() => expect(lists()).toBe(2));
  }, 20_000);

  it("asks before deleting", async () => {
    const f = fake();
    render(<SchedulesView t={f.t} projects={projects} agents={agents} onOpenSession={() => {}} />);
    await userEvent.click(await screen.findByRole("button", { name: "Delete Standup notes" }));
    expect(f.calls.some((c) => c.startsWith("DELETE"))).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Delete schedule" }));
    await waitFor(() => expect(f.calls).toContain("DELETE /api/schedules/sch_1"));
  }, 20_000);
});
