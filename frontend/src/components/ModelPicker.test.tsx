import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RunFeed } from "../store/feed";
import { evts } from "../store/testEvents";
import { latestModels, ModelPicker } from "./ModelPicker";

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
});
