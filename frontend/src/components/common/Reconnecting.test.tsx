import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CONNECTION_EVENT, Reconnecting } from "./Reconnecting";

// A stand-in for the runtime Wails injects: EventsOn keeps the callbacks.
function fakeWin() {
  const cbs = new Map<string, (...d: unknown[]) => void>();
  return {
    win: { runtime: { EventsOn: (name: string, cb: (...d: unknown[]) => void) => (cbs.set(name, cb), () => cbs.delete(name)) } },
    emit: (name: string, v: unknown) => cbs.get(name)?.(v),
  };
}

describe("Reconnecting", () => {
  it("shows while the core is away and goes when it is back", () => {
    const f = fakeWin();
    render(<Reconnecting win={f.win} />);
    expect(screen.queryByRole("status")).toBeNull();
    act(() => f.emit(CONNECTION_EVENT, false));
    expect(screen.getByRole("status").textContent).toContain("Reconnecting");
    act(() => f.emit(CONNECTION_EVENT, true));
    expect(screen.queryByRole("status")).toBeNull();
  });
});
