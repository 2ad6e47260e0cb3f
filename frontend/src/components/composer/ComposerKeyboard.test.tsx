import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "./Composer";

// The desktop window shown again (tray, notification) or opened anew: the
// message box takes the keyboard when nothing in the page has it.
describe("the message box takes the keyboard nobody has", () => {
  afterEach(() => vi.restoreAllMocks());

  it("when its page opens in the window", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<Composer onSend={vi.fn()} queueing={false} takeKeyboard />);
    expect(document.activeElement).toBe(screen.getByLabelText("Message"));
  });

  it("when the window gets the keyboard back, unless something else in the page has it", () => {
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    render(
      <>
        <input aria-label="Search" />
        <Composer onSend={vi.fn()} queueing={false} takeKeyboard />
      </>,
    );
    const box = screen.getByLabelText("Message");
    expect(document.activeElement).not.toBe(box); // the window is in the background
    hasFocus.mockReturnValue(true);
    window.dispatchEvent(new FocusEvent("focus"));
    expect(document.activeElement).toBe(box);

    const search = screen.getByLabelText("Search") as HTMLInputElement;
    search.focus();
    window.dispatchEvent(new FocusEvent("focus"));
    expect(document.activeElement).toBe(search);
  });

  it("not in a browser page", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(true);
    render(<Composer onSend={vi.fn()} queueing={false} />);
    window.dispatchEvent(new FocusEvent("focus"));
    expect(document.activeElement).toBe(document.body);
  });
});
