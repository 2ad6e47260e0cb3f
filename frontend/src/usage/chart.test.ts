import { describe, expect, it } from "vitest";
import { chartData, dayRange, shortCount } from "./chart";
import { costSentence } from "./summary";
import type { UsageReport } from "./types";

const zero = { runs: 0, input_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0, unpriced_runs: 0 };

describe("usage chart data", () => {
  it("lists every day from since to today, across a month's end", () => {
    expect(dayRange("2026-10-30", new Date(2026, 10, 2, 15))).toEqual(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"]);
    expect(dayRange("2026-11-03", new Date(2026, 10, 2))).toEqual([]);
  });

  it("gives each agent a value on every day", () => {
    const r: UsageReport = {
      group: "day",
      since: "2026-11-01",
      price_date: "2025-10-01",
      total: zero,
      rows: [
        { ...zero, key: "2026-11-01", label: "2026-11-01", agents: { codex: { ...zero, input_tokens: 10, output_tokens: 5 } } },
        { ...zero, key: "2026-11-03", label: "2026-11-03", agents: { claude: { ...zero, input_tokens: 7 }, codex: { ...zero, output_tokens: 1 } } },
      ],
    };
    const c = chartData(r, new Date(2026, 10, 3, 9));
    expect(c.agents).toEqual(["claude", "codex"]);
    expect(c.tokens).toEqual([
      [0, 0, 7],
      [15, 0, 1],
    ]);
    expect(c.days).toEqual([new Date(2026, 10, 1).getTime() / 1000, new Date(2026, 10, 2).getTime() / 1000, new Date(2026, 10, 3).getTime() / 1000]);
  });

  it.each([
    [950, "950"],
    [1200, "1.2k"],
    [3_400_000, "3.4M"],
  ])("shortCount(%d)", (n, want) => expect(shortCount(n)).toBe(want));
});

describe("the Usage view's cost sentence", () => {
  const total = { ...zero };
  const report = (t: Partial<typeof zero>): UsageReport => ({ group: "day", since: "2026-11-01", price_date: "2025-10-01", rows: [], total: { ...total, ...t } });
  it.each([
    [{}, "Nothing spent. Prices are the agent's own, or the price table of 2025-10-01."],
    [{ unpriced_runs: 2, runs: 2 }, "No cost known: 2 runs had no price. Prices are the agent's own, or the price table of 2025-10-01."],
    [{ cost_usd: 1.5, unpriced_runs: 1 }, "$1.50 in all (1 run had no price, not counted). Prices are the agent's own, or the price table of 2025-10-01."],
  ])("%j", (t, want) => expect(costSentence(report(t))).toBe(want));
});
