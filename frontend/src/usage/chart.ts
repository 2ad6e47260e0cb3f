// The Usage view's chart data (pure; chart.test.ts): the last days by
// agent, one series per agent, a value for every day (0 on a day without
// runs, so the lines do not skip days).
import type { UsageReport } from "./types";

export interface ChartData {
  /** Local midnight of each day, in seconds (uPlot's x). */
  days: number[];
  agents: string[];
  /** tokens[i][d]: agent i's tokens (in + out) on day d. */
  tokens: number[][];
}

/** The local days from since to today, as YYYY-MM-DD. */
export function dayRange(since: string, today: Date): string[] {
  const [y, m, d] = since.split("-").map(Number);
  const at = new Date(y!, m! - 1, d!);
  const end = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  const out: string[] = [];
  for (; at <= end && out.length < 400; at.setDate(at.getDate() + 1)) {
    out.push(`${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`);
  }
  return out;
}

export function chartData(r: UsageReport, today: Date): ChartData {
  const names = dayRange(r.since, today);
  const agents = [...new Set(r.rows.flatMap((row) => Object.keys(row.agents ?? {})))].sort();
  const byDay = new Map(r.rows.map((row) => [row.key, row]));
  const tokens = agents.map((a) =>
    names.map((d) => {
      const c = byDay.get(d)?.agents?.[a];
      return c ? c.input_tokens + c.output_tokens : 0;
    }),
  );
  const days = names.map((d) => {
    const [y, m, dd] = d.split("-").map(Number);
    return new Date(y!, m! - 1, dd!).getTime() / 1000;
  });
  return { days, agents, tokens };
}

/** Series colours: distinct, and legible on the light and the dark surface. */
export const seriesColors = ["#3b82f6", "#e8590c", "#2f9e44", "#ae3ec9", "#d6336c", "#0c8599", "#b08900", "#868e96"];

/** Short token counts for the axis: 950, 1.2k, 3.4M. */
export function shortCount(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}
