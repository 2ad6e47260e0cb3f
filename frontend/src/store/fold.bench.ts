// Throughput of the pieces on the streaming path. Run: npm run bench
import { bench, describe } from "vitest";
import { renderMarkdown } from "../markdown/render";
import { RunFeed } from "./feed";
import { evts } from "./testEvents";

const R = "run_b";
const deltas = evts(R, Array.from({ length: 100_000 }, (_, i) => ["token.delta", { text: i % 50 === 49 ? "\n\n" : "word " }] as [string, unknown]));
const mixed = evts(
  R,
  Array.from({ length: 100_000 }, (_, i): [string, unknown] => {
    const t = `t${Math.floor(i / 4)}`;
    switch (i % 4) {
      case 0: return ["tool.started", { tool_call_id: t, name: "bash", input: { command: "ls" } }];
      case 1: return ["tool.updated", { tool_call_id: t, output: "line\n" }];
      case 2: return ["tool.done", { tool_call_id: t, status: "completed", exit_code: 0 }];
      default: return ["token.delta", { text: "ok " }];
    }
  }),
);
const text = "Some **markdown** with `code` and a [link](https://example.com).\n\n".repeat(300); // ≈ 20 KB

describe("fold", () => {
  bench("100k token.delta events, one page", () => {
    new RunFeed(R).ingest(deltas, true);
  }, { iterations: 5 });
  bench("100k mixed tool/text events, one page", () => {
    new RunFeed(R).ingest(mixed, true);
  }, { iterations: 5 });
  bench("100k token.delta events, one live event at a time", () => {
    const f = new RunFeed(R);
    for (const e of deltas) f.ingest([e], false);
  }, { iterations: 3 });
});

describe("markdown", () => {
  bench("render a 20 KB streaming block", () => {
    renderMarkdown(text, { highlight: false });
  });
});
