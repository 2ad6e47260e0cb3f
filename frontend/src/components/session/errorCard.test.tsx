import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import type { RunEvent } from "../../transport/types";
import { SessionView, type SessionViewProps } from "./SessionView";

function setup(journal: RunEvent[], props: Partial<SessionViewProps> = {}) {
  const calls: string[] = [];
  const api = new ApiClient(async (m, p, b) => {
    calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (p === "/api/sessions/ses_1")
      return {
        status: 200,
        body: JSON.stringify({
          id: "ses_1", project_id: "p1", title: "T", agent: "demo",
          messages: [
            { id: "u1", session_id: "ses_1", role: "user", content: "/scenario fail", run_id: "run_1" },
            { id: "a1", session_id: "ses_1", role: "assistant", content: "", run_id: "run_1", run: { id: "run_1", session_id: "ses_1", status: "failed", last_seq: journal.length, terminal: true } },
          ],
        }),
      };
    const ev = /\/api\/runs\/run_1\/events\?after=(\d+)/.exec(p);
    if (ev) return { status: 200, body: JSON.stringify({ events: journal.filter((e) => e.seq > Number(ev[1])) }) };
    if (p === "/api/runs/run_1/log") return { status: 200, body: JSON.stringify({ run_id: "run_1", log: "level=ERROR msg=\"agent exited\" code=3\n" }) };
    if (p === "/api/runs" && m === "POST") return { status: 202, body: JSON.stringify({ run_id: "run_2", session_id: "ses_1", status: "running" }) };
    return { status: 404, body: "{}" };
  });
  const t: Transport = { kind: "http", api, watchRun: () => () => {} };
  const runs = new RunStore(t, { schedule: (cb) => cb() });
  render(<SessionView t={t} runs={runs} session={{ id: "ses_1", project_id: "p1", title: "T", agent: "demo" }} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} {...props} />);
  return calls;
}

describe("error card", () => {
  it("leads with a plain sentence, keeps the noise behind Details, says it once and offers Retry", async () => {
    const msg = 'acp: The model refused the request (code -32603)\ntime=x level=INFO msg="warm: serving the session\'s next run"';
    const calls = setup(
      evts("run_1", [
        ["run.started", { agent: "demo" }],
        ["error", { message: msg }],
        ["done", { status: "failed", error: msg }],
      ]),
    );
    expect(await screen.findByText("The model refused the request.")).toBeTruthy();
    expect(screen.getByText("Details")).toBeTruthy();
    // The footer says Failed without repeating the message.
    expect(screen.getAllByText(/The model refused the request/).filter((e) => !e.closest("details"))).toHaveLength(1);
    fireEvent.click(screen.getByText("Retry").closest("button")!);
    await waitFor(() => expect(calls.some((c) => c.startsWith("POST /api/runs ") && c.includes('"message":"/scenario fail"'))).toBe(true));
  });

  it.each([
    ["an agent that is not installed", { message: "Claude Code is not installed.", code: "agent_not_installed" }, "Install…", "settings"],
    ["a refused API key", { message: "Invalid API key." }, "Open settings", "settings"],
    ["a project folder that moved", { message: "chdir /home/me/proj: no such file or directory" }, "Locate folder", "locate"],
  ])("offers the fix for %s (23.13)", async (_what, error, label, want) => {
    const opened: string[] = [];
    setup(
      evts("run_1", [["run.started", { agent: "demo" }], ["error", error], ["done", { status: "failed", error: error.message }]]),
      {
        onOpenSettings: () => opened.push("settings"),
        project: { id: "p1", name: "proj", workspace: "/home/me/proj" },
        folder: { canPick: true, locate: async () => (opened.push("locate"), undefined), remove: () => {} },
      },
    );
    fireEvent.click((await screen.findByText(label)).closest("button")!);
    expect(opened).toEqual([want]);
  });

  it("opens the end of the run's log in a dialog", async () => {
    const calls = setup(
      evts("run_1", [
        ["run.started", { agent: "demo" }],
        ["error", { message: "The agent exited unexpectedly (exit code 3)." }],
        ["done", { status: "failed" }],
      ]),
    );
    fireEvent.click((await screen.findByText("Open log")).closest("button")!);
    expect(await screen.findByText(/msg="agent exited" code=3/)).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Run log" })).toBeTruthy();
    expect(calls).toContain("GET /api/runs/run_1/log");
  });

  it("says a completed run whose request was denied was denied", async () => {
    setup(
      evts("run_1", [
        ["run.started", { agent: "demo" }],
        ["approval.requested", { approval_id: "ap1", title: "Run rm", options: [{ id: "ok", label: "Allow", kind: "allow_once" }, { id: "no", label: "Deny", kind: "reject_once" }] }],
        ["approval.resolved", { approval_id: "ap1", choice: "no" }],
        ["done", { status: "completed" }],
      ]),
    );
    expect(await screen.findByText("Completed — the request was denied")).toBeTruthy();
  });
});
