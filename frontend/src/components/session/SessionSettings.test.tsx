import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { RunFeed } from "../../store/feed";
import { evts } from "../../store/testEvents";
import { modeName } from "./Inspector";
import { SessionSettings, settingText } from "./SessionSettings";

const R = "run_cfg";
const copilotMode = "https://agentclientprotocol.com/protocol/session-modes#agent";

function folded() {
  const f = new RunFeed(R);
  f.ingest(evts(R, [
    ["config.updated", { options: [
      { id: "model", name: "Model", category: "model", type: "select", current: "gpt-5", values: [{ id: "gpt-5", name: "GPT-5" }] },
      { id: "mode", name: "Mode", category: "mode", type: "select", current: copilotMode, values: [
        { id: copilotMode, name: "Agent" },
        { id: "https://agentclientprotocol.com/protocol/session-modes#plan", name: "Plan" },
      ] },
      { id: "reasoning_effort", name: "Reasoning effort", category: "thought_level", type: "select", current: "high", values: [{ id: "high", name: "High", description: "Thinks longest" }] },
      { id: "allow_all", name: "Allow all tools", type: "boolean", current: "false", values: [] },
    ] }],
  ]), true);
  return f;
}

describe("session settings", () => {
  it("shows the agent's settings by their names, never a mode's raw id, and leaves the model to its picker", () => {
    const f = folded();
    render(<SessionSettings options={f.view.config ?? []} />);
    const chips = screen.getByLabelText("Agent settings").textContent;
    expect(chips).toBe("Mode: AgentReasoning effort: HighAllow all tools: off");
    expect(chips).not.toContain("https://");
    expect(modeName(f.view)).toBe("Agent");
  });

  it("follows a mode change the agent reports", () => {
    const f = folded();
    f.ingest(evts(R, [["mode.updated", { mode: "https://agentclientprotocol.com/protocol/session-modes#plan" }]], 2), true);
    expect(modeName(f.view)).toBe("Plan");
    expect(settingText(f.view.config!.find((o) => o.id === "mode")!).value).toBe("Plan");
  });

  it("says a value it has no name for as it is", () => {
    expect(settingText({ id: "x", name: "Speed", type: "select", current: "warp", values: [] })).toEqual({ name: "Speed", value: "warp", title: undefined });
  });

  it("while a run works, offers each setting's choices by name and sends the one picked", async () => {
    const f = folded();
    const onSet = vi.fn(async () => undefined);
    render(<SessionSettings options={f.view.config ?? []} onSet={onSet} />);
    const mode = screen.getByLabelText("Mode") as HTMLSelectElement;
    expect([...mode.options].map((o) => o.textContent)).toEqual(["Agent", "Plan"]);
    fireEvent.change(mode, { target: { value: "https://agentclientprotocol.com/protocol/session-modes#plan" } });
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("mode", "https://agentclientprotocol.com/protocol/session-modes#plan"));
    fireEvent.click(screen.getByRole("checkbox"));
    await waitFor(() => expect(onSet).toHaveBeenCalledWith("allow_all", "true"));
    expect(screen.queryByLabelText("Model")).toBeNull(); // the model picker has the model
  });

  it("says why a setting was not changed", async () => {
    const f = folded();
    render(<SessionSettings options={f.view.config ?? []} onSet={async () => "This agent cannot do that."} />);
    fireEvent.click(screen.getByRole("checkbox"));
    expect((await screen.findByRole("alert")).textContent).toBe("This agent cannot do that.");
  });
});
