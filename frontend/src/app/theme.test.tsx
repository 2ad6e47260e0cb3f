import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readTheme, useTheme } from "./theme";

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute("data-theme");
});

describe("theme", () => {
  it.each([
    // [saved in this browser, served on <html> by the window, expected]
    [null, null, "system"],
    [null, "dark", "dark"],
    [null, "light", "light"],
    [null, "purple", "system"],
    ["dark", null, "dark"],
    ["light", "dark", "dark"],
    ["dark", "system", "system"],
    ["bogus", "dark", "dark"],
    ["light", "bogus", "light"],
  ])("storage %j, served %j → %j", (saved, served, want) => {
    if (saved !== null) localStorage.setItem("hermesdesk.theme", saved);
    const root = document.createElement("html");
    if (served !== null) root.setAttribute("data-theme", served);
    expect(readTheme(root)).toBe(want);
  });

  it("tells the window each theme chosen, and survives a window that cannot save it", async () => {
    const remember = vi.fn(async (_t: string) => {
      throw new Error("disk full");
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { result } = renderHook(() => useTheme(remember));
    await waitFor(() => expect(remember).toHaveBeenLastCalledWith("system"));
    act(() => result.current[1]("dark"));
    await waitFor(() => expect(remember).toHaveBeenLastCalledWith("dark"));
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(localStorage.getItem("hermesdesk.theme")).toBe("dark");
    await waitFor(() => expect(warn).toHaveBeenCalled());
    warn.mockRestore();
  });
});
