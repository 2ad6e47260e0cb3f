import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FORCE_AFTER_S, forceChangesAt, useForceCountdown } from "./stopping";

// The Stop countdown wakes the page once per visible change and not at all
// otherwise (docs/ARCHITECTURE.md §Idle): one pending timer at most while
// it counts, none once it says "forcing it now", when hidden or unmounted.
describe("force countdown timers", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  it("the next change is the next whole second, none after the end", () => {
    expect(forceChangesAt(10_000, 10_000)).toBe(11_000);
    expect(forceChangesAt(10_000, 10_999)).toBe(11_000);
    expect(forceChangesAt(10_000, 11_000)).toBe(12_000);
    expect(forceChangesAt(10_000, 5_000)).toBe(11_000);
    expect(forceChangesAt(10_000, 10_000 + FORCE_AFTER_S * 1000 - 1)).toBe(10_000 + FORCE_AFTER_S * 1000);
    expect(forceChangesAt(10_000, 10_000 + FORCE_AFTER_S * 1000)).toBeUndefined();
  });

  it("wakes once a second while counting, then never", () => {
    const { result } = renderHook(({ on }) => useForceCountdown(on), { initialProps: { on: true } });
    expect(result.current).toBe(FORCE_AFTER_S);
    let wakes = 0;
    while (vi.getTimerCount() > 0) {
      expect(vi.getTimerCount()).toBe(1);
      act(() => vi.advanceTimersToNextTimer());
      wakes++;
      expect(wakes).toBeLessThanOrEqual(FORCE_AFTER_S);
    }
    expect(wakes).toBe(FORCE_AFTER_S);
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(60_000));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("no timer when not cancelling, after it ends, or after unmount", () => {
    const { result, rerender, unmount } = renderHook(({ on }) => useForceCountdown(on), { initialProps: { on: false } });
    expect(result.current).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    rerender({ on: true });
    expect(vi.getTimerCount()).toBe(1);
    rerender({ on: false });
    expect(result.current).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    rerender({ on: true });
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("sleeps while the page is hidden and catches up when shown", () => {
    const { result } = renderHook(() => useForceCountdown(true));
    act(() => setHidden(true));
    expect(vi.getTimerCount()).toBe(0);
    act(() => vi.advanceTimersByTime(3_000));
    expect(result.current).toBe(FORCE_AFTER_S);
    act(() => setHidden(false));
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(FORCE_AFTER_S - 3);
    expect(vi.getTimerCount()).toBe(1);
  });
});

function setHidden(hidden: boolean) {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}
