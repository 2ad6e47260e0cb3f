import { act, renderHook } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { usePersisted } from "./usePersisted";

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

test("a value is written once, and setting the same value again writes nothing", () => {
  const write = vi.spyOn(Storage.prototype, "setItem");
  const { result } = renderHook(() => usePersisted<Record<string, string>>("seen-test", {}));
  const next = { a: "1" };
  act(() => result.current[1](next));
  expect(write).toHaveBeenCalledTimes(1);
  expect(JSON.parse(localStorage.getItem("seen-test")!)).toEqual({ a: "1" });
  act(() => result.current[1]((m) => m)); // an updater that keeps the value
  act(() => result.current[1](next));
  expect(write).toHaveBeenCalledTimes(1);
  expect(result.current[0]).toBe(next);
});
