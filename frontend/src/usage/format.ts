// How a run's usage reads in the run footer and the inspector
// (docs/ARCHITECTURE.md §Usage). Pure, tested in format.test.ts.
import type { Usage } from "../store/model";

const n = (x: number) => x.toLocaleString("en-US");

/** Tokens in one line: "2,308 in (2,000 cached, 300 cache write) · 50 out (12 reasoning)". */
export function tokenLine(u: Usage | undefined): string {
  if (!u || (!u.input_tokens && !u.output_tokens)) return "";
  const inner = [
    u.cached_tokens ? `${n(u.cached_tokens)} cached` : "",
    u.cache_write_tokens ? `${n(u.cache_write_tokens)} cache write` : "",
  ].filter(Boolean);
  const input = `${n(u.input_tokens ?? 0)} in${inner.length ? ` (${inner.join(", ")})` : ""}`;
  const output = `${n(u.output_tokens ?? 0)} out${u.reasoning_tokens ? ` (${n(u.reasoning_tokens)} reasoning)` : ""}`;
  return `${input} · ${output}`;
}

/** Cost: "$0.0123", or "no price" when tokens were spent on a model the price table does not know. */
export function costLabel(u: Usage | undefined): string {
  if (!u) return "";
  if (u.cost_usd) return `$${u.cost_usd < 0.01 ? u.cost_usd.toFixed(4) : u.cost_usd.toFixed(2)}`;
  return u.input_tokens || u.output_tokens ? "no price" : "";
}

/** Where the cost came from, for the inspector: "reported by the agent", "price table of 2025-10-01". */
export function costSource(u: Usage | undefined): string {
  const s = u?.cost_source ?? "";
  if (s === "agent") return "reported by the agent";
  if (s.startsWith("prices ")) return `price table of ${s.slice(7)}`;
  return "";
}

function short(x: number): string {
  if (x >= 1_000_000) return `${+(x / 1_000_000).toFixed(1)}M`;
  if (x >= 1000) return `${+(x / 1000).toFixed(1)}k`;
  return String(x);
}

/** Context window used of its size: "53k of 200k context (27 %)"; the used part alone when the size is unknown. */
export function contextLabel(u: Usage | undefined): string {
  if (!u?.context_tokens) return "";
  if (!u.context_window) return `${short(u.context_tokens)} context`;
  const pct = Math.round((100 * u.context_tokens) / u.context_window);
  return `${short(u.context_tokens)} of ${short(u.context_window)} context (${pct} %)`;
}

/** The run footer's usage bits, in order. */
export function usageBits(u: Usage | undefined): string[] {
  return [tokenLine(u), costLabel(u), contextLabel(u)].filter(Boolean);
}
