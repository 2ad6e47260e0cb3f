import { describe, expect, it } from "vitest";
import { FORCE_AFTER_S, forceIn, stoppingText } from "./stopping";

describe("force countdown", () => {
  it.each([
    [0, FORCE_AFTER_S],
    [999, FORCE_AFTER_S],
    [1000, FORCE_AFTER_S - 1],
    [FORCE_AFTER_S * 1000 - 1, 1],
    [FORCE_AFTER_S * 1000, 0],
    [60_000, 0],
  ])("after %i ms leaves %i s", (elapsed, left) => {
    expect(forceIn(10_000, 10_000 + elapsed)).toBe(left);
  });

  it("says when the agent will be forced", () => {
    expect(stoppingText("goose", undefined)).toBe("Stopping goose…");
    expect(stoppingText("goose", 5)).toBe("Stopping goose… (force in 5 s)");
    expect(stoppingText("goose", 0)).toBe("Stopping goose… (forcing it now)");
  });
});
