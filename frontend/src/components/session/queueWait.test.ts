import { describe, expect, it } from "vitest";
import type { RunInfo } from "../../transport/types";
import { queueWait } from "./queueWait";

const run = (id: string, session: string, status: RunInfo["status"], created: string): RunInfo => ({
  id,
  session_id: session,
  status,
  last_seq: 0,
  terminal: false,
  created_at: created,
});

describe("queueWait", () => {
  const four = ["a", "b", "c", "d"].map((s, i) => run(`r_${s}`, `s_${s}`, i === 3 ? "awaiting_approval" : "running", `2026-01-01T00:00:0${i}Z`));
  it.each<[string, RunInfo[], string, string | undefined]>([
    ["a fifth run behind four running ones", [...four, run("r_e", "s_e", "queued", "2026-01-01T00:01:00Z")], "r_e", "Waiting for a free slot (4 running)"],
    ["behind its own session's active run", [run("r_a", "s_a", "running", "1"), run("r_b", "s_a", "queued", "2")], "r_b", "Queued — starts when this session's current run ends"],
    ["behind an earlier queued run of its session", [...four, run("r_e", "s_e", "queued", "3"), run("r_f", "s_e", "queued", "4")], "r_f", "Queued — starts when this session's current run ends"],
    ["the first of its session waits for a slot", [...four, run("r_e", "s_e", "queued", "3"), run("r_f", "s_e", "queued", "4")], "r_e", "Waiting for a free slot (4 running)"],
    ["nothing running: about to start", [run("r_a", "s_a", "queued", "1")], "r_a", "Queued — starting…"],
    ["a running run has no reason", four, "r_a", undefined],
    ["unknown to the bus", four, "r_z", undefined],
  ])("%s", (_name, active, id, want) => {
    expect(queueWait(active, id)).toBe(want);
  });
});
