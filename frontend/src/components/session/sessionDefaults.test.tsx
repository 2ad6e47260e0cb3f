// The header's agent settings before the first message and between runs
// (docs/ARCHITECTURE.md §Session config options).
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ConfigOption } from "../../store/model";
import { RunStore } from "../../store/runStore";
import { evts } from "../../store/testEvents";
import { ApiClient } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import type { AgentConfig, RunEvent } from "../../transport/types";
import { defaultModels, headerSettings } from "./SessionSettings";
import { SessionView } from "./SessionView";

// codex-acp's settings for a new session: it starts read-only, and reports
// its models only as a selector.
const codexDefaults: ConfigOption[] = [
  { id: "mode", name: "Approval Preset", category: "mode", type: "select", current: "read-only", values: [
    { id: "read-only", name: "Read Only" }, { id: "auto", name: "Default" }, { id: "full-access", name: "Full Access" },
  ] },
  { id: "model", name: "Model", category: "model", type: "select", current: "gpt-5-codex", values: [
    { id: "gpt-5-codex", name: "GPT-5 Codex" }, { id: "gpt-5", name: "GPT-5" },
  ] },
];

function setup(messages: object[], journal: RunEvent[] = [], kept?: Record<string, string>, defaults: AgentConfig = { agent: "codex-acp", options: codexDefaults }) {
  const calls: string[] = [];
  const session = { id: "ses_1", project_id: "p1", title: "New", agent: "codex-acp", config: kept };
  const api = new ApiClient(async (m, p, b) => {
    calls.push(`${m} ${p}${b ? ` ${b}` : ""}`);
    if (p === "/api/sessions/ses_1" && m === "GET") return { status: 200, body: JSON.stringify({ ...session, messages }) };
    if (p === "/api/sessions/ses_1" && m === "PATCH") {
      session.config = { ...session.config, ...(JSON.parse(b!) as { config: Record<string, string> }).config };
      return { status: 200, body: JSON.stringify(session) };
    }
    if (p === "/api/agents/codex-acp/config") return { status: 200, body: JSON.stringify(defaults) };
    if (p === "/api/agents/codex-acp/models") return { status: 200, body: JSON.stringify({ agent: "codex-acp", listed: false, models: [] }) };
    if (/\/api\/runs\/run_2\/events/.test(p)) return { status: 200, body: JSON.stringify({ events: [] }) };
    const ev = /\/api\/runs\/run_1\/events\?after=(\d+)/.exec(p);
    if (ev) return { status: 200, body: JSON.stringify({ events: journal.filter((e) => e.seq > Number(ev[1])) }) };
    return { status: 404, body: "{}" };
  });
  const t: Transport = { kind: "http", api, watchRun: () => () => {} };
  const runs = new RunStore(t, { schedule: (cb) => cb() });
  render(<SessionView t={t} runs={runs} session={session} inspectorOpen={false} onInspector={() => {}} onChanged={() => {}} onSeen={() => {}} onRename={async () => undefined} />);
  return calls;
}

describe("the header's agent settings", () => {
  it("before the first message shows the agent's defaults read-only — codex-acp's read-only mode — and its models", async () => {
    setup([]);
    const chip = await screen.findByText("(agent default)");
    expect(chip.closest(".chip")!.textContent).toBe("Approval Preset: Read Only (agent default)");
    expect(chip.closest(".chip")!.getAttribute("aria-disabled")).toBe("true");
    expect(screen.queryByRole("combobox", { name: "Approval Preset" })).toBeNull(); // not changeable yet
    const model = screen.getByRole("combobox", { name: "Model" }) as HTMLSelectElement;
    expect(model.value).toBe("gpt-5-codex");
    expect([...model.options].map((o) => o.textContent)).toEqual(["GPT-5 Codex", "GPT-5"]);
  });

  it("before the first message offers the models an agent reported apart from its settings", async () => {
    setup([], [], undefined, { agent: "codex-acp", options: [], model: "demo-small", models: [{ id: "demo-small", name: "Demo small" }, { id: "demo-large", name: "Demo large" }] });
    await waitFor(() => expect((screen.getByRole("combobox", { name: "Model" }) as HTMLSelectElement).value).toBe("demo-small"));
    expect(screen.queryByLabelText("Agent settings")).toBeNull();
    expect(defaultModels({ agent: "a", options: codexDefaults, model: "x", models: [] }).model).toBe("gpt-5-codex"); // a model selector wins
  });

  it("between runs offers the settings and keeps the choice on the session for its next run", async () => {
    const R = "run_1";
    const journal = evts(R, [
      ["run.started", { agent: "codex-acp" }],
      ["config.updated", { options: codexDefaults, defaults: true }],
      ["done", { status: "completed" }],
    ]);
    const calls = setup([
      { id: "u1", session_id: "ses_1", role: "user", content: "hi" },
      { id: "a1", session_id: "ses_1", role: "assistant", content: "hello", run_id: R, run: { id: R, session_id: "ses_1", status: "completed", last_seq: journal.length, terminal: true } },
    ], journal);
    const mode = (await screen.findByRole("combobox", { name: "Approval Preset" })) as HTMLSelectElement;
    expect(mode.value).toBe("read-only");
    expect(screen.queryByText("(agent default)")).toBeNull();
    fireEvent.change(mode, { target: { value: "auto" } });
    await waitFor(() => expect(calls).toContain('PATCH /api/sessions/ses_1 {"config":{"mode":"auto"}}'));
    await waitFor(() => expect((screen.getByRole("combobox", { name: "Approval Preset" }) as HTMLSelectElement).value).toBe("auto"));
  });

  it("while a follow-up waits in the queue, keeps the choice on the session: the run starts with it", async () => {
    const R = "run_1";
    const journal = evts(R, [
      ["run.started", { agent: "codex-acp" }],
      ["config.updated", { options: codexDefaults, defaults: true }],
      ["done", { status: "completed" }],
    ]);
    const calls = setup([
      { id: "u1", session_id: "ses_1", role: "user", content: "hi" },
      { id: "a1", session_id: "ses_1", role: "assistant", content: "hello", run_id: R, run: { id: R, session_id: "ses_1", status: "completed", last_seq: journal.length, terminal: true } },
      { id: "u2", session_id: "ses_1", role: "user", content: "more" },
      { id: "a2", session_id: "ses_1", role: "assistant", content: "", run_id: "run_2", run: { id: "run_2", session_id: "ses_1", status: "queued", last_seq: 0, terminal: false } },
    ], journal, { mode: "auto" });
    const mode = (await screen.findByRole("combobox", { name: "Approval Preset" })) as HTMLSelectElement;
    expect(mode.value).toBe("auto"); // the kept choice, not the last run's
    fireEvent.change(mode, { target: { value: "full-access" } });
    await waitFor(() => expect(calls).toContain('PATCH /api/sessions/ses_1 {"config":{"mode":"full-access"}}'));
    expect(calls.some((c) => c.includes("/config {"))).toBe(false);
  });

  it("decides what to show", () => {
    const latest = [{ ...codexDefaults[0]!, current: "auto" }];
    const cases: { name: string; args: Parameters<typeof headerSettings>; current: string; agentDefault: boolean }[] = [
      { name: "a working run's own", args: [latest, { mode: "full-access" }, codexDefaults, true], current: "auto", agentDefault: false },
      { name: "between runs, the kept choice", args: [latest, { mode: "full-access" }, codexDefaults, false], current: "full-access", agentDefault: false },
      { name: "a kept choice no longer offered", args: [latest, { mode: "yolo" }, codexDefaults, false], current: "auto", agentDefault: false },
      { name: "before the first run, the agent's default", args: [[], undefined, codexDefaults, false], current: "read-only", agentDefault: true },
      { name: "a run starting, not reported yet", args: [[], undefined, codexDefaults, true], current: "read-only", agentDefault: true },
      { name: "before a run, a kept choice is not the default", args: [[], { mode: "auto" }, codexDefaults, false], current: "auto", agentDefault: false },
    ];
    for (const c of cases) {
      const got = headerSettings(...c.args);
      expect({ name: c.name, current: got.options[0]!.current, agentDefault: got.agentDefault }).toEqual({ name: c.name, current: c.current, agentDefault: c.agentDefault });
    }
    expect(headerSettings([], undefined, [], false)).toEqual({ options: [], agentDefault: false });
  });
});
