import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Dialog } from "./Dialog";

function Body() {
  return (
    <>
      <button type="button">First</button>
      <input aria-label="Command" />
    </>
  );
}

describe("Dialog", () => {
  it("keeps the focus where the person is when its parent re-renders (Settings jumped to the top after saving an agent)", () => {
    const { rerender } = render(<Dialog title="Settings" onClose={() => {}}><Body /></Dialog>);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "First" }));
    const field = screen.getByLabelText("Command");
    field.focus();
    // The app re-renders (the agents changed after a save): a new onClose.
    rerender(<Dialog title="Settings" onClose={() => {}}><Body /></Dialog>);
    expect(document.activeElement).toBe(field);
  });

  it("closes on Escape with the latest onClose", async () => {
    const first = vi.fn();
    const latest = vi.fn();
    const { rerender } = render(<Dialog title="Settings" onClose={first}><Body /></Dialog>);
    rerender(<Dialog title="Settings" onClose={latest}><Body /></Dialog>);
    await userEvent.keyboard("{Escape}");
    expect(latest).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
  });
});
