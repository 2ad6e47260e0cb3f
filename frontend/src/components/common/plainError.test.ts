import { describe, expect, it } from "vitest";
import { plainError } from "./plainError";

describe("plainError", () => {
  it.each([
    {
      name: "protocol code and a log line",
      msg: 'acp: Internal error: the model refused (code -32603)\ntime=2026-01-01T00:00:00Z level=INFO msg="warm: serving the session\'s next run"',
      lead: "Internal error: the model refused.",
      inDetails: ["code -32603", "level=INFO"],
    },
    {
      name: "pids and socket paths before the useful line",
      msg: "shim pid=4242 exited\ncontrol socket /run/user/1/hd/r1.sock closed\nThe agent crashed: out of memory",
      lead: "The agent crashed: out of memory.",
      inDetails: ["pid=4242", "r1.sock"],
    },
    { name: "a plain sentence stays as it is", msg: "The agent did not answer.", lead: "The agent did not answer.", inDetails: [] },
    { name: "nothing but noise", msg: 'level=INFO msg="x"', lead: "The agent stopped with an error.", inDetails: ["level=INFO"] },
  ])("$name", ({ msg, lead, inDetails }) => {
    const p = plainError(msg);
    expect(p.lead).toBe(lead);
    for (const d of inDetails) expect(p.details).toContain(d);
  });
});

// A message Hermes Desk worded itself (its code is one of the contract's
// SENTENCE_CODES) is shown as written: its first line leads, nothing is
// picked out by pattern.
describe("plainError with a code", () => {
  it.each([
    {
      name: "not installed, with how to install on the next line",
      msg: "Claude Code is not installed.\ninstall with: npm install -g @anthropic-ai/claude-code",
      code: "agent_not_installed",
      lead: "Claude Code is not installed.",
      details: "install with: npm install -g @anthropic-ai/claude-code",
    },
    {
      name: "a sentence that names a socket stays whole",
      msg: "the run's process stopped; its socket /run/user/1/r.sock is gone",
      code: "shim_stopped",
      lead: "The run's process stopped; its socket /run/user/1/r.sock is gone.",
      details: "",
    },
    {
      name: "an agent's own words are still ordered",
      msg: "acp: Internal error: the model refused (code -32603)",
      code: "agent",
      lead: "Internal error: the model refused.",
      details: "acp: Internal error: the model refused (code -32603)",
    },
  ])("$name", ({ msg, code, lead, details }) => {
    const p = plainError(msg, undefined, code);
    expect(p.lead).toBe(lead);
    expect(p.details).toBe(details);
  });
});

