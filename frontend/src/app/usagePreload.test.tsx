import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { loadUsageView, MainPane, type MainPaneProps } from "./MainPane";

// The Usage view's chunk loaded ahead renders on the click's own frame: a
// lazy view that suspends would wait for React 19's Suspense throttle
// (~300 ms, `make bench-usage`; docs/ARCHITECTURE.md §Usage).
describe("the Usage view loaded ahead", () => {
  it("renders at once, without suspending", async () => {
    // uPlot asks for the pixel ratio's media query when it loads.
    vi.stubGlobal("matchMedia", () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
    await loadUsageView();
    const pending = new Promise<never>(() => {});
    const props = {
      t: { kind: "http", api: { usage: () => pending, quota: () => pending } },
      b: { conn: "online" },
      nav: { usageOpen: true, adding: false },
    } as unknown as MainPaneProps;
    render(<MainPane {...props} />);
    // No waiting: the heading is there on the first render.
    expect(screen.getByRole("heading", { name: "Usage" })).toBeTruthy();
  });
});
