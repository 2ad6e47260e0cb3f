import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { NewSession } from "../components/composer/NewSession";
import { uniqueTitle } from "./App";

const project = { id: "p1", name: "proj", workspace: "/w" };
const demoOnly = [{ name: "demo", installed: true, status: "ready" }] as never;

describe("demo onboarding", () => {
  it("lets the first demo message be anything, such as /scenario slow", async () => {
    const started: [string, string][] = [];
    render(<NewSession project={project} agents={demoOnly} onStart={async (a, t) => (started.push([a, t]), true)} onRecheck={() => {}} />);
    expect(screen.getByText(/No agent found/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText("Message"), "/scenario slow{Enter}");
    await waitFor(() => expect(started).toEqual([["demo", "/scenario slow"]]));
  });

  it("shows the install wall only once per project", () => {
    render(<NewSession project={project} agents={demoOnly} onStart={async () => true} onRecheck={() => {}} hasSessions />);
    expect(screen.queryByText(/here is how to install one/)).toBeNull();
    expect(screen.getByText(/No agent found yet/)).toBeTruthy();
    expect(screen.getByLabelText("Message")).toBeTruthy();
  });

  it.each([
    ["demo and Any command: the demo", [{ name: "demo" }, { name: "command" }], "demo"],
    ["Any command first in the list: still the real agent", [{ name: "command" }, { name: "demo" }, { name: "claude" }], "claude"],
    ["only Any command", [{ name: "command" }], "command"],
  ])("starts with %s — Any command is never picked silently (23.18)", async (_what, list, want) => {
    render(<NewSession project={project} agents={list as never} onStart={async () => true} onRecheck={() => {}} hasSessions />);
    await waitFor(() => expect((screen.getByRole("combobox") as HTMLSelectElement).value).toBe(want));
  });

  it.each([
    ["Show me", [], "Show me"],
    ["Show me", ["Show me"], "Show me (2)"],
    ["Show me", ["Show me", "Show me (2)"], "Show me (3)"],
  ])("titles %s among %j as %s", (t, taken, want) => expect(uniqueTitle(t, taken)).toBe(want));
});
