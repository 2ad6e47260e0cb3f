import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import { describe, expect, it, vi } from "vitest";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport, WatchHandlers } from "../../transport/transport";
import type { RunEvent, RunState } from "../../transport/types";
import { SessionView, waitText, type SessionHandle, type SessionViewProps } from "./SessionView";
import { FORCE_AFTER_S } from "./stopping";

const session = { id: "ses_1", project_id: "p1", title: "Fix it", agent: "claude", model: "sonnet" };

function setup(journal: RunEvent[], extra: object[] = [], props: Partial<SessionViewProps> = {}, over: Partial<typeof session & { imported_from: string; native_session_id: string }> = {}) {
  const ses = { ...session, ...over };
  const calls: string[] = [];
  const watchers: WatchHandlers[] = [];
  const api = new ApiClient(async (m, p, b) => {
    calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (p === "/api/sessions/ses_1") {
      return {
        status: 200,
        body: JSON.stringify({
          ...ses,
          messages: [
            { id: "u1", session_id: "ses_1", role: "user", content: "please fix" },
            { id: "a1", session_id: "ses_1", role: "assistant", content: "", run_id: "run_1", run: { id: "run_1", session_id: "ses_1", status: "running", last_seq: journal.length, terminal: false } },
            ...extra,
          ],
        }),
      };
    }
    if (/\/api\/runs\/run_2\/events/.test(p)) return { status: 200, body: JSON.stringify({ events: [] }) };
    const ev = /\/api\/runs\/run_1\/events\?after=(\d+)/.exec(p);
    if (ev) return { status: 200, body: JSON.stringify({ events: journal.filter((e) => e.seq > Number(ev[1])) }) };
    if (p.endsWith("/model")) return { status: 200, body: JSON.stringify({ accepted: false, status: "unsupported" }) };
    if (p.endsWith("/cancel") || p.endsWith("/queue") || p.includes("/approvals/") || p.includes("/clarify")) return { status: 200, body: JSON.stringify({ accepted: true, status: "accepted" }) };
    return { status: 404, body: "{}" };
  });
  const t: Transport = { kind: "http", api, watchRun: (_id, _after, h) => (watchers.push(h), () => {}) };
  const runs = new RunStore(t, { schedule: (cb) => cb() });
  const ref = createRef<SessionHandle>();
  render(<SessionView ref={ref} t={t} runs={runs} session={ses} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} {...props} />);
  return { calls, watchers, ref };
}

const R = "run_1";
const live = evts(R, [
  ["run.started", { agent: "claude", model: "sonnet" }],
  ["message.user", { message_id: "u1", text: "please fix" }],
  ["token.delta", { text: "Looking at it." }],
  ["approval.requested", { approval_id: "ap1", title: "Run rm", command: "rm -rf build", options: [{ id: "ok", label: "Allow", kind: "allow_once" }, { id: "no", label: "Deny", kind: "reject_once" }] }],
]);

describe("SessionView", () => {
  it("replays the run, shows the pending approval and answers it", async () => {
    const { calls } = setup(live);
    expect(await screen.findByText("Run rm")).toBeTruthy();
    expect(screen.getByText("Looking at it.")).toBeTruthy();
    // The user message is shown once (from the session, not again from the run).
    expect(screen.getAllByText("please fix")).toHaveLength(1);
    expect(screen.getByRole("status", { name: /needs approval/i })).toBeTruthy();
    expect(screen.getByText("Waiting for your approval above")).toBeTruthy();
    // virtua keeps rows hidden until measured, and jsdom never measures:
    // find the button by its text rather than by accessible role.
    fireEvent.click(screen.getByText("Allow").closest("button")!);
    await waitFor(() => expect(calls).toContain('POST /api/runs/run_1/approvals/ap1 {"choice":"ok"}'));
  });

  it("draws no live controls for an imported session, whatever its run's events say", async () => {
    // A hostile bundle's run left waiting on an approval (issue 21 item 7).
    const { calls } = setup(live, [], {}, { imported_from: "evil.hdbundle.jsonl" });
    expect(await screen.findByText("Run rm")).toBeTruthy();
    expect(screen.getByText("Imported")).toBeTruthy();
    expect(screen.queryByRole("status", { name: /needs approval/i })).toBeNull();
    expect(screen.queryByText("Waiting for your approval above")).toBeNull();
    expect(screen.queryByRole("button", { name: /Stop/ })).toBeNull();
    expect(screen.queryByText("Allow")).toBeNull();
    expect(screen.queryByText("Deny")).toBeNull();
    expect(screen.getByText("No longer waiting for an answer.")).toBeTruthy();
    expect(document.querySelector(".model-picker")).toBeNull();
    // Its digits answer nothing either.
    fireEvent.keyDown(window, { key: "1" });
    expect(calls.some((c) => c.includes("/approvals/"))).toBe(false);
  });

  it("offers Continue on a session from the agent's own history, not on a bundle's", async () => {
    const { calls } = setup(live, [], {}, { imported_from: "Claude Code 2.1.197: /h/.claude/projects/-w/abc.jsonl", native_session_id: "abc" });
    await screen.findByText("Run rm");
    await userEvent.click(screen.getByRole("button", { name: "Continue in claude" }));
    await waitFor(() => expect(calls).toContain("POST /api/sessions/ses_1/continue"));
  });

  it("has no Continue on a bundle's session", async () => {
    setup(live, [], {}, { imported_from: "a.hdbundle.jsonl" });
    await screen.findByText("Run rm");
    expect(screen.queryByRole("button", { name: /Continue in/ })).toBeNull();
  });

  it("queues a message sent while the run is active, and Stop cancels", async () => {
    const { calls } = setup(live);
    await screen.findByText("Run rm");
    await userEvent.type(screen.getByLabelText("Message"), "also update docs{Enter}");
    await waitFor(() => expect(calls.some((c) => c.startsWith("POST /api/runs/run_1/queue {\"message\":\"also update docs\""))).toBe(true));
    await userEvent.click(screen.getByRole("button", { name: /Stop/ }));
    expect(calls).toContain("POST /api/runs/run_1/cancel {}");
  });

  it("stops the run when the app asks (Ctrl+.) and edits the title (F2)", async () => {
    const { calls, ref } = setup(live);
    await screen.findByText("Run rm");
    expect(calls).not.toContain("POST /api/runs/run_1/cancel {}");
    act(() => ref.current!.stop!());
    await waitFor(() => expect(calls).toContain("POST /api/runs/run_1/cancel {}"));
    act(() => ref.current!.rename!());
    expect(await screen.findByRole("textbox", { name: /title/i })).toBeTruthy();
  });

  it("/new asks the app for a new session and /stop stops the run", async () => {
    const onNewSession = vi.fn();
    const { calls } = setup(live, [], { onNewSession });
    await screen.findByText("Run rm");
    await userEvent.type(screen.getByLabelText("Message"), "/new{Enter}");
    await waitFor(() => expect(onNewSession).toHaveBeenCalledTimes(1));
    await userEvent.type(screen.getByLabelText("Message"), "/stop{Enter}");
    await waitFor(() => expect(calls).toContain("POST /api/runs/run_1/cancel {}"));
  });

  it("follows the waiting run, not the follow-up queued behind it; the queued one can be cancelled", async () => {
    const queued = [
      { id: "u2", session_id: "ses_1", role: "user", content: "green", run_id: "run_2" },
      { id: "a2", session_id: "ses_1", role: "assistant", content: "", run_id: "run_2", run: { id: "run_2", session_id: "ses_1", status: "queued", last_seq: 0, terminal: false } },
    ];
    const { calls } = setup(live, queued);
    await screen.findByText("Run rm");
    // The header says what the active run does, not "Queued".
    expect(screen.getByRole("status", { name: /needs approval/i })).toBeTruthy();
    expect(screen.getByText(/Queued — runs when the agent is free/)).toBeTruthy();
    const stop = screen.getByRole("button", { name: /Stop/ });
    expect(stop.getAttribute("title")).toMatch(/queued message still runs next/);
    await userEvent.click(stop);
    expect(calls).toContain("POST /api/runs/run_1/cancel {}");
    expect(calls).not.toContain("POST /api/runs/run_2/cancel {}");
    expect(await screen.findByText(/Stopping the run: your queued message still runs next/)).toBeTruthy();
    fireEvent.click(screen.getByText("Cancel").closest("button")!);
    await waitFor(() => expect(calls).toContain("POST /api/runs/run_2/cancel {}"));
  });

  it("drops the Stop note about queued messages once the stopped run ended (23.10)", async () => {
    const queued = [
      { id: "u2", session_id: "ses_1", role: "user", content: "green", run_id: "run_2" },
      { id: "a2", session_id: "ses_1", role: "assistant", content: "", run_id: "run_2", run: { id: "run_2", session_id: "ses_1", status: "queued", last_seq: 0, terminal: false } },
    ];
    const { watchers } = setup(live, queued);
    await screen.findByText("Run rm");
    await userEvent.click(screen.getByRole("button", { name: /Stop/ }));
    expect(await screen.findByText(/Stopping the run: your queued message still runs next/)).toBeTruthy();
    await waitFor(() => expect(watchers.length).toBeGreaterThan(0));
    act(() => watchers[0]!.onEvents(evts(R, [["done", { status: "cancelled" }]], live.length + 1)));
    await waitFor(() => expect(screen.queryByText(/Stopping the run/)).toBeNull());
  });

  it("switches the model of a live run and says when the agent cannot", async () => {
    const { calls } = setup(live);
    await screen.findByText("Run rm");
    await userEvent.click(screen.getByRole("button", { name: /switch model/i }));
    const input = await screen.findByLabelText("Model");
    await userEvent.clear(input);
    await userEvent.type(input, "opus{Enter}");
    await waitFor(() => expect(calls).toContain('POST /api/runs/run_1/model {"model":"opus"}'));
    expect((await screen.findByText("This agent cannot do that.")).getAttribute("role")).toBe("alert");
  });

  it("follows live events and shows the end of the run", async () => {
    const { watchers } = setup(live.slice(0, 3));
    await screen.findByText("Looking at it.");
    await waitFor(() => expect(watchers).toHaveLength(1));
    const more = evts(R, [["token.delta", { text: " Fixed." }], ["done", { status: "completed" }]], 4);
    watchers[0]!.onEvents(more);
    expect(await screen.findByText("Looking at it. Fixed.")).toBeTruthy();
    expect(screen.getAllByText("Completed").length).toBeGreaterThan(0);
    expect(screen.queryByRole("button", { name: /Stop/ })).toBeNull();
  });

  it("says a lost follow in plain words, folds the transport's, and Retry follows again (23.13)", async () => {
    const { watchers } = setup(live.slice(0, 3));
    await screen.findByText("Looking at it.");
    await waitFor(() => expect(watchers).toHaveLength(1));
    act(() => watchers[0]!.onError!(new TypeError("Failed to fetch"), true));
    const banner = (await screen.findByText(/Cannot follow this run: the connection to Hermes Desk was lost/)).closest(".banner")!;
    // The raw words only under Details, never in the sentence.
    expect(banner.querySelector("p")!.textContent).not.toContain("Failed to fetch");
    expect(banner.querySelector("details pre")!.textContent).toBe("Failed to fetch");
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(watchers).toHaveLength(2));
    await waitFor(() => expect(screen.queryByText(/Cannot follow this run/)).toBeNull());
    watchers[1]!.onEvents(evts(R, [["token.delta", { text: " Fixed." }]], 4));
    expect(await screen.findByText("Looking at it. Fixed.")).toBeTruthy();
  });
});

describe("the header's agent chip", () => {
  it("keeps the last run's model while the next run's first events load", async () => {
    const done = evts(R, [["run.started", { agent: "demo", model: "demo-small" }], ["token.delta", { text: "Hi." }], ["done", { status: "completed" }]]);
    const next = { id: "a2", session_id: "ses_1", role: "assistant", content: "", run_id: "run_2", run: { id: "run_2", session_id: "ses_1", status: "running", last_seq: 0, terminal: false } };
    setup(done, [next], {}, { agent: "demo", model: "" });
    await screen.findByText("Hi.");
    const chip = await screen.findByRole("button", { name: /^demo, model/ });
    await waitFor(() => expect(chip.textContent).toBe("demodemo-small"));
  });

  it("names only the agent when the model picker beside it names the model", async () => {
    const available = [{ id: "demo-small", name: "Demo small" }, { id: "demo-large", name: "Demo large" }];
    const done = evts(R, [["run.started", { agent: "demo", model: "demo-small" }], ["model.updated", { model: "demo-small", available }], ["token.delta", { text: "Hi." }], ["done", { status: "completed" }]]);
    setup(done, [], {}, { agent: "demo", model: "" });
    await screen.findByText("Hi.");
    const picker = (await screen.findByLabelText("Model")) as HTMLSelectElement;
    expect(picker.value).toBe("demo-small");
    expect(screen.queryByRole("button", { name: /switch model/i })).toBeNull();
    expect(screen.getByTitle("Agent").textContent).toBe("demo");
  });

  it("names the agent by its own name (an added agent's), not its id", async () => {
    const done = evts(R, [["run.started", { agent: "my-acp" }], ["token.delta", { text: "Hi." }], ["done", { status: "completed" }]]);
    setup(done, [], { agentName: (id) => (id === "my-acp" ? "My ACP Agent" : id) }, { agent: "my-acp", model: "" });
    await screen.findByText("Hi.");
    expect(screen.getByTitle("Agent and model").textContent).toBe("My ACP Agent");
  });
});

describe("keyboard when the agent asks", () => {
  it("gives the approval card the keyboard: 1 approves, Esc leaves the composer", async () => {
    const { calls } = setup(live);
    await screen.findByText("Run rm");
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Allow/));
    fireEvent.keyDown(document.activeElement!, { key: "1" });
    await waitFor(() => expect(calls).toContain('POST /api/runs/run_1/approvals/ap1 {"choice":"ok"}'));
    const box = screen.getByLabelText("Message");
    box.focus();
    fireEvent.keyDown(box, { key: "Escape" });
    expect(document.activeElement).not.toBe(box);
  });

  it("routes the composer's text to a pending question instead of queueing it", async () => {
    const asking = evts(R, [
      ["run.started", { agent: "claude" }],
      ["clarify.requested", { clarify_id: "c1", question: "Which colour?", choices: [] }],
    ]);
    const { calls } = setup(asking);
    await screen.findByText("Which colour?");
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-label")).toBe("Your answer"));
    const box = screen.getByLabelText("Message");
    expect(box.getAttribute("placeholder")).toMatch(/Answer the agent's question/);
    await userEvent.type(box, "green{Enter}");
    await waitFor(() => expect(calls.some((c) => c.startsWith("POST /api/runs/run_1/clarify") && c.includes('"green"'))).toBe(true));
    expect(calls.some((c) => c.includes("/queue"))).toBe(false);
  });
});

describe("waitText", () => {
  it("always says what a live run waits for", () => {
    expect(waitText(undefined, "queued", "claude")).toMatch(/Queued/);
    expect(waitText(undefined, "running", "claude")).toBe("Waiting for claude to respond…");
    expect(waitText(undefined, "completed", "claude")).toBeUndefined();
    expect(waitText(undefined, "parked", "claude")).toBe("Waiting for quota");
    expect(waitText(undefined, "cancelling", "codex")).toBe("Stopping codex…");
    expect(waitText(undefined, "cancelling", "codex", 5)).toBe("Stopping codex… (force in 5 s)");
    expect(waitText(undefined, "cancelling", "codex", 0)).toBe("Stopping codex… (forcing it now)");
  });
});

describe("Force stop", () => {
  it("shows the countdown while cancelling and kills at once on Force stop", async () => {
    const stopping = evts(R, [
      ["run.started", { agent: "claude" }],
      ["token.delta", { text: "Still going." }],
      ["status", { status: "cancelling" }],
    ]);
    const { calls } = setup(stopping);
    expect(await screen.findByText(`Stopping claude… (force in ${FORCE_AFTER_S} s)`)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Stop$/ })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: /Force stop/ }));
    await waitFor(() => expect(calls).toContain('POST /api/runs/run_1/cancel {"force":true}'));
  });
});

describe("a queued run says why it waits", () => {
  it("names the free-slot wait from the watch bus, and updates when a slot frees", async () => {
    const api = new ApiClient(async (_m, p) => {
      if (p === "/api/sessions/ses_1") {
        return {
          status: 200,
          body: JSON.stringify({
            ...session,
            messages: [
              { id: "u1", session_id: "ses_1", role: "user", content: "please fix" },
              { id: "a1", session_id: "ses_1", role: "assistant", content: "", run_id: "run_1", run: { id: "run_1", session_id: "ses_1", status: "queued", last_seq: 0, terminal: false } },
            ],
          }),
        };
      }
      if (/\/api\/runs\/run_1\/events/.test(p)) return { status: 200, body: JSON.stringify({ events: [] }) };
      return { status: 404, body: "{}" };
    });
    let bus: BusHandlers | undefined;
    const t: Transport = { kind: "http", api, watchRun: () => () => {}, watchBus: (h) => ((bus = h), () => {}) };
    const runs = new RunStore(t, { schedule: (cb) => cb() });
    runs.bus.start();
    const state = (id: string, ses: string, status: RunState["status"], at: string): RunState => ({ run_id: id, session_id: ses, agent: "claude", status, last_seq: 0, created_at: at });
    const others = ["a", "b", "c", "d"].map((s, i) => state(`run_${s}`, `ses_${s}`, "running", `2026-01-01T00:00:0${i}Z`));
    const mine = state("run_1", "ses_1", "queued", "2026-01-01T00:01:00Z");
    render(<SessionView t={t} runs={runs} session={session} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} />);
    act(() => bus!.onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [...others, mine], sessions_version: 1 } }));
    expect(await screen.findByText("Waiting for a free slot (4 running)")).toBeTruthy();
    act(() => bus!.onMessage({ seq: 2, type: "run.changed", run: { ...others[0]!, status: "completed" } }));
    expect(await screen.findByText("Waiting for a free slot (3 running)")).toBeTruthy();
  });

  it("streams text into its row without re-rendering the session view; the inspector follows every event", async () => {
    const seen = vi.fn();
    const { watchers } = setup(live.slice(0, 3), [], { onSeen: seen, inspectorOpen: true });
    expect(await screen.findByText("Looking at it.")).toBeTruthy();
    await waitFor(() => expect(watchers).toHaveLength(1));
    const renders = seen.mock.calls.length; // the session view marks the session seen on each of its ticks
    for (const [i, t] of [" Found", " the", " bug."].entries()) {
      act(() => watchers[0]!.onEvents(evts(R, [["token.delta", { text: t }]], 4 + i)));
    }
    expect(await screen.findByText("Looking at it. Found the bug.")).toBeTruthy();
    expect(screen.getByText("Text: bug.")).toBeTruthy(); // the inspector's timeline
    expect(seen.mock.calls.length).toBe(renders);
    // A new block is a change of shape: the session view renders it.
    act(() => watchers[0]!.onEvents(evts(R, [["tool.started", { tool_call_id: "t1", name: "bash", title: "go test" }]], 7)));
    expect(await screen.findByText("go test")).toBeTruthy();
    expect(seen.mock.calls.length).toBeGreaterThan(renders);
  });
});
