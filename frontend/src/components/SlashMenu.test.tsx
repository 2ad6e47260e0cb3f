import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Composer } from "./Composer";
import { slashItems, slashQuery } from "./SlashMenu";
import { buildProductCommands } from "./slashCommands";

const agentCmds = [
  { name: "goal", description: "Set a goal" },
  { name: "compress", description: "Compress the context" },
  { name: "stop", description: "The agent's own stop" },
];

describe("slash menu items", () => {
  it.each([
    ["/", true],
    ["/go", true],
    ["hello /go", false],
    ["/goal now", false],
    ["", false],
  ])("%j is a command being typed: %s", (text, yes) => {
    expect(slashQuery(text) !== undefined).toBe(yes);
  });

  it("lists the agent's commands first, filtered, and never lets a product command hide one", () => {
    const stop = vi.fn();
    const product = [{ name: "stop", run: stop }, { name: "new", run: vi.fn() }];
    expect(slashItems(agentCmds, product, "").map((i) => `${i.source}:${i.name}${i.alsoAgent ? "*" : ""}`))
      .toEqual(["agent:goal", "agent:compress", "agent:stop", "product:stop*", "product:new"]);
    expect(slashItems(agentCmds, product, "co").map((i) => i.name)).toEqual(["compress"]);
    expect(slashItems(agentCmds, product, "st").map((i) => i.source)).toEqual(["agent", "product"]);
  });

  it("offers stop and model only while a run is active, and scenarios only for the demo agent", () => {
    const names = (agent: string, active: boolean) =>
      buildProductCommands({ agent, active, stop: vi.fn(), model: vi.fn(), newSession: vi.fn() }).map((c) => c.name);
    expect(names("demo", true)).toEqual(["stop", "model", "new", "scenario"]);
    expect(names("claude", false)).toEqual(["new"]);
  });
});

describe("Composer slash menu", () => {
  it("opens on /, filters as you type, and inserts the picked agent command", async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer onSend={onSend} queueing={false} commands={agentCmds} productCommands={[{ name: "new", run: vi.fn() }]} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "/");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual([
      expect.stringContaining("/goal"), expect.stringContaining("/compress"), expect.stringContaining("/stop"), expect.stringContaining("/new"),
    ]);
    await userEvent.type(box, "c");
    expect(screen.getAllByRole("option")).toHaveLength(1);
    await userEvent.keyboard("{Enter}");
    expect(box.value).toBe("/compress ");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.keyboard("{Enter}");
    expect(onSend).toHaveBeenCalledWith("/compress", []);
  });

  it("runs a product command picked with the arrows, and Escape closes the menu", async () => {
    const run = vi.fn();
    render(<Composer onSend={vi.fn(async () => true)} queueing={false} commands={agentCmds} productCommands={[{ name: "stop", description: "Stop the run", run }]} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "/st");
    expect(screen.getByText(/the agent has one too/)).toBeTruthy();
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(run).toHaveBeenCalled();
    expect(box.value).toBe("");
    await userEvent.type(box, "/g");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(box.value).toBe("/g");
  });
});
