import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RunFeed } from "../../store/feed";
import { evts } from "../../store/testEvents";
import type { AgentModels, WatchMessage } from "../../transport/types";
import { latestModels, ModelPicker, pickerModels, useAgentModels } from "./ModelPicker";

const models = [{ id: "demo-small", name: "Demo small" }, { id: "demo-large", name: "Demo large" }];

describe("ModelPicker", () => {
  it("takes the models the agent reported", () => {
    const f = new RunFeed("r1");
    f.ingest(evts("r1", [["model.updated", { model: "demo-small", available: models }], ["model.updated", { model: "demo-large", by: "user" }]]), true);
    expect(f.view.model).toBe("demo-large");
    expect(latestModels({ view: (id) => (id === "r1" ? f.view : undefined) }, ["r0", "r1"])).toEqual(models);
  });

  it("shows nothing when the agent reports no models", () => {
    const { container } = render(<ModelPicker models={[]} current="x" onPick={vi.fn()} />);
    expect(container.textContent).toBe("");
  });

  it("picks a model and shows a refusal", async () => {
    const onPick = vi.fn(async (m: string) => (m === "demo-large" ? "This agent cannot do that." : undefined));
    render(<ModelPicker models={models} current="demo-small" onPick={onPick} />);
    const select = screen.getByLabelText("Model") as HTMLSelectElement;
    expect(select.value).toBe("demo-small");
    await userEvent.selectOptions(select, "demo-large");
    expect(onPick).toHaveBeenCalledWith("demo-large");
    expect((await screen.findByRole("alert")).textContent).toContain("cannot");
  });

  it("names an unlisted current model as it is", () => {
    render(<ModelPicker models={models} current="custom-1" onPick={vi.fn()} />);
    expect((screen.getByLabelText("Model") as HTMLSelectElement).selectedOptions[0]!.textContent).toBe("custom-1");
  });

  it("shows the model's name alone, the id in its tooltip, so the closed picker is not cut mid-id (polish)", () => {
    render(<ModelPicker models={models} current="demo-small" onPick={vi.fn()} />);
    const opt = (screen.getByLabelText("Model") as HTMLSelectElement).selectedOptions[0]!;
    expect(opt.textContent).toBe("Demo small");
    expect(opt.title).toBe("demo-small");
  });

  it("badges bidi and zero-width characters in the agent's model names (21.12)", () => {
    const sneaky = [{ id: "gpt\u200B-4", name: "Fast \u202Eladom" }, { id: "plain\u2066x" }];
    render(<ModelPicker models={sneaky} current={"other\u202E"} onPick={vi.fn()} />);
    const texts = [...(screen.getByLabelText("Model") as HTMLSelectElement).options].map((o) => o.textContent);
    expect(texts).toEqual(["other<U+202E>", "Fast <U+202E>ladom", "plain<U+2066>x"]);
  });

  it("takes the server's list when no run reported models, the run's report otherwise", () => {
    const listed: AgentModels = { agent: "openai-compatible", listed: true, models: [{ id: "llama3" }] };
    expect(pickerModels([], listed)).toEqual([{ id: "llama3" }]);
    expect(pickerModels(models, listed)).toEqual(models);
    expect(pickerModels([], undefined)).toEqual([]);
  });

  it("says why there is no list and offers to ask again", async () => {
    const onRetry = vi.fn();
    render(<ModelPicker models={[]} onPick={vi.fn()} note="Could not reach the agent's server" onRetry={onRetry} />);
    expect(screen.getByRole("status").textContent).toContain("Could not reach");
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalled();
  });
});

describe("useAgentModels", () => {
  function Harness({ api, agent, bus }: { api: Parameters<typeof useAgentModels>[0]; agent: string; bus?: Parameters<typeof useAgentModels>[2] }) {
    const { listed, retry } = useAgentModels(api, agent, bus);
    return <ModelPicker models={pickerModels([], listed)} onPick={async () => undefined} note={listed?.message} onRetry={retry} />;
  }

  it("asks the backend once per agent, and again with refresh on Retry", async () => {
    const calls: string[] = [];
    let up = false;
    const api = {
      agentModels: vi.fn(async (agent: string, refresh?: boolean): Promise<AgentModels> => {
        calls.push(`${agent}${refresh ? " refresh" : ""}`);
        return up
          ? { agent, listed: true, models: [{ id: "llama3" }, { id: "qwen" }] }
          : { agent, listed: true, models: [], message: "Could not reach the agent's server" };
      }),
    };
    const { rerender } = render(<Harness api={api} agent="openai-compatible" />);
    expect((await screen.findByRole("status")).textContent).toContain("Could not reach");
    up = true;
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    const select = (await screen.findByLabelText("Model")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["", "llama3", "qwen"]);
    rerender(<Harness api={api} agent="openai-compatible" />);
    expect(calls).toEqual(["openai-compatible", "openai-compatible refresh"]);
  });

  it("shows nothing when the request fails", async () => {
    const api = { agentModels: vi.fn(async () => Promise.reject(new Error("404"))) };
    const { container } = render(<Harness api={api} agent="demo" />);
    await waitFor(() => expect(api.agentModels).toHaveBeenCalled());
    expect(container.textContent).toBe("");
  });

  it("asks again (from the backend's cache) when the agents changed", async () => {
    const listeners = new Set<(m: WatchMessage) => void>();
    const bus = { subscribe: (cb: (m: WatchMessage) => void) => (listeners.add(cb), () => listeners.delete(cb)) };
    const calls: string[] = [];
    const api = {
      agentModels: vi.fn(async (agent: string, refresh?: boolean): Promise<AgentModels> => {
        calls.push(`${agent}${refresh ? " refresh" : ""}`);
        return { agent, listed: true, models: [{ id: `m${calls.length}` }] };
      }),
    };
    render(<Harness api={api} agent="openai-compatible" bus={bus} />);
    expect(await screen.findByRole("option", { name: "m1" })).toBeTruthy();
    act(() => listeners.forEach((cb) => cb({ seq: 2, type: "run.changed" })));
    act(() => listeners.forEach((cb) => cb({ seq: 3, type: "agents.changed" })));
    expect(await screen.findByRole("option", { name: "m2" })).toBeTruthy();
    expect(calls).toEqual(["openai-compatible", "openai-compatible"]);
  });
});
