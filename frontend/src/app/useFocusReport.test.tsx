import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { openSessionId } from "../transport/wails";
import { useFocusReport } from "./useFocusReport";

describe("focus report", () => {
  it("reports the session shown, again on blur and focus, and nothing while disconnected", () => {
    const setFocus = vi.fn(async (_id: string, _focused: boolean) => ({}));
    const api = { setFocus };
    const { rerender, unmount } = renderHook(({ id, on }) => useFocusReport(api, id, on), { initialProps: { id: "s1", on: false } });
    expect(setFocus).not.toHaveBeenCalled();
    rerender({ id: "s1", on: true });
    expect(setFocus).toHaveBeenLastCalledWith("s1", expect.any(Boolean));
    window.dispatchEvent(new Event("blur"));
    rerender({ id: "s2", on: true });
    expect(setFocus.mock.calls.map((c) => c[0])).toEqual(["s1", "s1", "s2"]);
    unmount();
    window.dispatchEvent(new Event("focus"));
    expect(setFocus).toHaveBeenCalledTimes(3);
  });

  it.each([
    [{ session_id: "ses_1" }, "ses_1"],
    [{ session_id: 7 }, ""],
    [null, ""],
    ["ses_1", ""],
  ])("reads the open-session payload %j as %j", (v, want) => {
    expect(openSessionId(v)).toBe(want);
  });
});
