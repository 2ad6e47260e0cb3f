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

/** GET /api/usage/quota: a vendor's latest window as its agent reported it. */
export interface QuotaLine {
  vendor: string;
  window: string;
  window_minutes?: number;
  used_percent?: number;
  resets_at?: number;
  limited?: boolean;
  seen_at: string;
  /** "Codex: 72 % of the 5-hour window, resets 14:20" (as of … when stale). */
  line: string;
}
