import { describe, expect, it } from "vitest";
import { REVEAL_MAX, revealRun } from "./revealed";

describe("revealRun", () => {
  it.each([
    { name: "the first", list: [], id: "a", max: 3, want: ["a"] },
    { name: "already newest: the same list", list: ["a", "b"], id: "b", max: 3, want: ["a", "b"] },
    { name: "seen again moves to the end", list: ["a", "b", "c"], id: "a", max: 3, want: ["b", "c", "a"] },
    { name: "past the cap the oldest goes", list: ["a", "b", "c"], id: "d", max: 3, want: ["b", "c", "d"] },
  ])("$name", ({ list, id, max, want }) => {
    expect(revealRun(list, id, max)).toEqual(want);
  });

  it("keeps a long read bounded (23.20: every older turn stayed attached)", () => {
    let list: readonly string[] = [];
    for (let i = 0; i < 500; i++) list = revealRun(list, `run_${i}`);
    expect(list).toHaveLength(REVEAL_MAX);
    expect(list[list.length - 1]).toBe("run_499");
  });

  it("returns the same list when nothing changes (no re-render)", () => {
    const list = ["a", "b"];
    expect(revealRun(list, "b")).toBe(list);
  });
});
