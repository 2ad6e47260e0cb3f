import { describe, expect, it } from "vitest";
import { RunFeed } from "../store/feed";
import { evts } from "../store/testEvents";
import type { RunEvent } from "../transport/types";

function fold(events: RunEvent[]): RunFeed {
  const f = new RunFeed("run_u");
  f.ingest(events, true);
  return f;
}

describe("a run's usage in the fold", () => {
  it("keeps the context an ACP usage update gave when the final count has none", () => {
    const v = fold(
      evts("run_u", [
        ["run.started", { agent: "demo" }],
        ["usage.updated", { context_tokens: 53000, context_window: 200000, cost_usd: 0.2, cost_source: "agent" }],
        ["done", { status: "completed", usage: { input_tokens: 900, output_tokens: 80 } }],
      ]),
    ).view;
    expect(v.usage).toEqual({ input_tokens: 900, output_tokens: 80, context_tokens: 53000, context_window: 200000 });
  });

  it("takes the final count's own context over an update's", () => {
    const v = fold(
      evts("run_u", [
        ["usage.updated", { context_tokens: 5, context_window: 10 }],
        ["done", { status: "completed", usage: { input_tokens: 9, context_tokens: 7, context_window: 258400 } }],
      ]),
    ).view;
    expect(v.usage).toEqual({ input_tokens: 9, context_tokens: 7, context_window: 258400 });
  });
});
