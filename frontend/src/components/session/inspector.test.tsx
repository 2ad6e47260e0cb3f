import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applyEvent } from "../../store/fold";
import { newRunView } from "../../store/model";
import { evts } from "../../store/testEvents";
import { describeEvent, Inspector } from "./Inspector";

describe("Inspector", () => {
  it("reads as a timeline in words with the JSON on demand, and picks a run", () => {
    const v = newRunView("run_1");
    for (const e of evts("run_1", [
      ["run.started", { agent: "demo" }],
      ["tool.started", { tool_call_id: "t", name: "bash", title: "ls -la" }],
      ["done", { status: "completed" }],
    ])) applyEvent(v, e);
    const picked: string[] = [];
    render(
      <Inspector
        view={v}
        onClose={() => {}}
        choices={[{ id: "run_0", label: "Turn 1: hi" }, { id: "run_1", label: "Turn 2: ls" }]}
        selected="run_1"
        onSelect={(id) => picked.push(id)}
      />,
    );
    expect(screen.getByText("Tool started: ls -la")).toBeTruthy();
    expect([...document.querySelectorAll(".t-json")].map((e) => e.textContent).join("")).toContain('"tool_call_id": "t"');
    fireEvent.change(screen.getByLabelText("Run to inspect"), { target: { value: "run_0" } });
    expect(picked).toEqual(["run_0"]);
  });

  it.each([
    ["token.delta", { text: "hello" }, "Text: hello"],
    ["approval.requested", { title: "Run rm" }, "Asked to approve: Run rm"],
    ["done", { status: "failed" }, "Ended: failed"],
    ["something.new", {}, "something.new"],
  ])("describes %s", (type, p, want) => expect(describeEvent(type, p)).toBe(want));
});

describe("describeEvent without its fields", () => {
  it("leaves no dangling colon", () => expect(describeEvent("tool.updated", {})).toBe("Tool update"));
});
