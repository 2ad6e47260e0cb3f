// GET /api/usage's answer (backend/usage/totals.go Report).
export type UsageGroup = "day" | "agent" | "model" | "project";

export interface UsageCounts {
  runs: number;
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  cost_usd: number;
  unpriced_runs: number;
}

export interface UsageRow extends UsageCounts {
  key: string;
  label: string;
  /** With group=day: the day split by agent. */
  agents?: Record<string, UsageCounts>;
}

export interface UsageReport {
  group: UsageGroup;
  since: string;
  price_date: string;
  rows: UsageRow[];
  total: UsageCounts;
}
