import { describe, expect, it } from "vitest";
import { contextLabel, costLabel, costSource, tokenLine, usageBits } from "./format";

describe("usage format", () => {
  it.each([
    [undefined, ""],
    [{}, ""],
    [{ input_tokens: 12, output_tokens: 180 }, "12 in · 180 out"],
    [
      { input_tokens: 2308, cached_tokens: 2000, cache_write_tokens: 300, output_tokens: 50, reasoning_tokens: 12 },
      "2,308 in (2,000 cached, 300 cache write) · 50 out (12 reasoning)",
    ],
  ])("tokenLine(%j)", (u, want) => expect(tokenLine(u)).toBe(want));

  it.each([
    [undefined, ""],
    [{ input_tokens: 5 }, "no price"],
    [{ input_tokens: 5, cost_usd: 0.000175 }, "$0.0002"],
    [{ input_tokens: 5, cost_usd: 1.234 }, "$1.23"],
    [{ context_tokens: 5 }, ""],
  ])("costLabel(%j)", (u, want) => expect(costLabel(u)).toBe(want));

  it.each([
    [{ cost_source: "agent" }, "reported by the agent"],
    [{ cost_source: "prices 2025-10-01" }, "price table of 2025-10-01"],
    [{}, ""],
  ])("costSource(%j)", (u, want) => expect(costSource(u)).toBe(want));

  it.each([
    [{}, ""],
    [{ context_tokens: 1200 }, "1.2k context"],
    [{ context_tokens: 53000, context_window: 200000 }, "53k of 200k context (27 %)"],
    [{ context_tokens: 10, context_window: 1000000 }, "10 of 1M context (0 %)"],
  ])("contextLabel(%j)", (u, want) => expect(contextLabel(u)).toBe(want));

  it("puts the footer's bits in order", () => {
    expect(usageBits({ input_tokens: 10, output_tokens: 5, cost_usd: 0.5, context_tokens: 10, context_window: 200000 })).toEqual([
      "10 in · 5 out",
      "$0.50",
      "10 of 200k context (0 %)",
    ]);
  });
});
