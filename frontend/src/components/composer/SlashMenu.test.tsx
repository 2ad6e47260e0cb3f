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

  it("lists the agent's commands, filtered, and never lets a product command hide one; the app's /stop comes before the agent's (21.12)", () => {
    const stop = vi.fn();
    const product = [{ name: "stop", run: stop }, { name: "new", run: vi.fn() }];
    expect(slashItems(agentCmds, product, "").map((i) => `${i.source}:${i.name}${i.alsoAgent ? "*" : ""}`))
      .toEqual(["agent:goal", "agent:compress", "product:stop*", "agent:stop", "product:new"]);
    expect(slashItems(agentCmds, product, "co").map((i) => i.name)).toEqual(["compress"]);
    expect(slashItems(agentCmds, product, "st").map((i) => i.source)).toEqual(["product", "agent"]);
  });

  it("lists /scenario once when the demo agent reports it too (polish)", () => {
    const product = buildProductCommands({ agent: "demo", active: false, stop: vi.fn(), model: vi.fn(), newSession: vi.fn() });
    const demoCmds = [{ name: "scenario", description: "Play a scripted scenario" }];
    const items = slashItems(demoCmds, product, "sc");
    expect(items.map((i) => `${i.source}:${i.name}`)).toEqual(["product:scenario"]);
    expect(items[0]!.alsoAgent).toBe(false);
    expect(slashItems(demoCmds, product, "").filter((i) => i.name === "scenario")).toHaveLength(1);
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

  it("runs the product command first in the list on Enter, and Escape closes the menu", async () => {
    const run = vi.fn();
    render(<Composer onSend={vi.fn(async () => true)} queueing={false} commands={agentCmds} productCommands={[{ name: "stop", description: "Stop the run", run }]} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "/st");
    expect(screen.getByText(/the agent has one too/)).toBeTruthy();
    // The app's /stop is first: "/stop" Enter stops the run (21.12).
    await userEvent.keyboard("{Enter}");
    expect(run).toHaveBeenCalled();
    expect(box.value).toBe("");
    await userEvent.type(box, "/g");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(box.value).toBe("/g");
  });
});

describe("slash menu shows hidden characters (21.12)", () => {
  it("badges bidi and zero-width characters in an agent's command names and descriptions", async () => {
    const sneaky = [{ name: "dep\u200Bloy", description: "Run \u202Etxt.exe" }];
    render(<Composer onSend={vi.fn(async () => true)} queueing={false} commands={sneaky} />);
    await userEvent.type(screen.getByLabelText("Message"), "/");
    const option = screen.getByRole("option");
    expect(option.textContent).toContain("/dep<U+200B>loy");
    expect(option.textContent).toContain("Run <U+202E>txt.exe");
    expect(option.textContent).not.toContain("\u202E");
  });
});
