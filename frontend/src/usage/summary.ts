// Words and numbers of the Usage view (pure; tested in chart.test.ts).
import type { UsageReport } from "./types";

export const n = (x: number) => x.toLocaleString("en-US");
export const money = (x: number) => (x ? `$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}` : "—");

/** What the 30 days cost, saying which runs are not in it and where prices come from. */
export function costSentence(r: UsageReport): string {
  const unpriced = r.total.unpriced_runs > 0 ? `${n(r.total.unpriced_runs)} ${r.total.unpriced_runs === 1 ? "run" : "runs"} had no price` : "";
  const cost = r.total.cost_usd
    ? `${money(r.total.cost_usd)} in all${unpriced ? ` (${unpriced}, not counted)` : ""}`
    : unpriced
      ? `No cost known: ${unpriced}`
      : "Nothing spent";
  return `${cost}. Prices are the agent's own, or the price table of ${r.price_date}.`;
}

