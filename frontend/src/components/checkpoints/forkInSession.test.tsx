// Fork from here in the session view: the turn's footer forks through the
// API and the view hands the new session to the shell to open
// (docs/ARCHITECTURE.md §Checkpoints).
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import { SessionView } from "../session/SessionView";

const session = { id: "ses_1", project_id: "p1", title: "Fix it", agent: "demo", model: "" };
const forked = { id: "ses_2", project_id: "p1", title: "Fork of Fix it", agent: "demo", workspace_id: "wsp_1" };

describe("Fork from here in the session view", () => {
  it("forks from the turn and opens the new session", async () => {
    const done = evts("run_1", [["run.started", { agent: "demo" }], ["token.delta", { text: "Hi." }], ["done", { status: "completed" }]]);
    const calls: string[] = [];
    const api = new ApiClient(async (m, p, b) => {
      calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
      if (p === "/api/sessions/ses_1")
        return {
          status: 200,
          body: JSON.stringify({
            ...session,
            messages: [
              { id: "u1", session_id: "ses_1", role: "user", content: "please fix", run_id: "run_1" },
              { id: "a1", session_id: "ses_1", role: "assistant", content: "", run_id: "run_1", run: { id: "run_1", session_id: "ses_1", status: "completed", last_seq: done.length, terminal: true } },
            ],
          }),
        };
      if (p === "/api/sessions/ses_1/checkpoints")
        return { status: 200, body: JSON.stringify({ checkpoints: [{ id: "cp_run_1", kind: "run", state: "kept", session_id: "ses_1", turn_id: "turn_1", run_id: "run_1", workspace: "/w", git_dir: "/w/.git", ref: "r", head: "abc", created_at: "2026-01-01T10:00:00Z" }] }) };
      if (p === "/api/sessions/ses_1/fork" && m === "POST") return { status: 201, body: JSON.stringify(forked) };
      const ev = /\/api\/runs\/run_1\/events\?after=(\d+)/.exec(p);
      if (ev) return { status: 200, body: JSON.stringify({ events: done.filter((e) => e.seq > Number(ev[1])) }) };
      return { status: 404, body: "{}" };
    });
    const t: Transport = { kind: "http", api, watchRun: () => () => {} };
    const runs = new RunStore(t, { schedule: (cb) => cb() });
    const onOpenSession = vi.fn();
    render(<SessionView t={t} runs={runs} session={session} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} onOpenSession={onOpenSession} />);
    await screen.findByText("Hi.");
    // virtua keeps rows hidden until measured (jsdom never measures): by text.
    fireEvent.click((await screen.findByText(/Fork from here/)).closest("button")!);
    await waitFor(() => expect(onOpenSession).toHaveBeenCalledWith(forked));
    expect(calls).toContain('POST /api/sessions/ses_1/fork {"turn":"turn_1"}');
  });
});
