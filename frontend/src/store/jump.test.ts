import { describe, expect, it } from "vitest";
import { applyEvent } from "./fold";
import { blockForEvent, hitKey, jumpTarget, markedTerms, snippetParts } from "./jump";
import { newRunView } from "./model";
import { evts } from "./testEvents";

describe("snippetParts", () => {
  it.each([
    ["plain", "no marks", [{ text: "no marks", mark: false }]],
    ["one", "ran «dpkg» here", [{ text: "ran ", mark: false }, { text: "dpkg", mark: true }, { text: " here", mark: false }]],
    ["edges", "«a»«b»", [{ text: "a", mark: true }, { text: "b", mark: true }]],
    ["unclosed", "x «y", [{ text: "x «y", mark: false }]],
    ["stray close", "x » y", [{ text: "x » y", mark: false }]],
    ["empty mark", "a«»b", [{ text: "a", mark: false }, { text: "b", mark: false }]],
    ["html stays text", "«<img onerror=x>»", [{ text: "<img onerror=x>", mark: true }]],
  ])("%s", (_n, input, want) => {
    expect(snippetParts(input)).toEqual(want);
  });

  it("gives the distinct matched terms, lower-cased", () => {
    expect(markedTerms("«Format» and «format» then «Code»")).toEqual(["format", "code"]);
    expect(markedTerms(undefined)).toEqual([]);
  });

  it("stamps every picked hit so picking it again jumps again", () => {
    const h = { session_id: "s", run_id: "r", seq: 4, snippet: "«x»" };
    const a = jumpTarget(h);
    const b = jumpTarget(h);
    expect(a).toMatchObject({ sessionId: "s", runId: "r", seq: 4, terms: ["x"] });
    expect(b.nonce).not.toBe(a.nonce);
    expect(hitKey(h)).toBe(hitKey({ ...h, snippet: "other" }));
    expect(hitKey(h)).not.toBe(hitKey({ ...h, seq: 5 }));
  });
});

describe("blockForEvent", () => {
  const R = "r";
  const log = evts(R, [
    ["message.user", { message_id: "u1", text: "go" }], // 1
    ["reasoning.delta", { text: "let me think" }], // 2
    ["reasoning.done", {}], // 3
    ["token.delta", { text: "First I will look." }], // 4
    ["tool.started", { tool_call_id: "t1", name: "bash", input: { command: "ls" } }], // 5
    ["tool.started", { tool_call_id: "t2", name: "bash", input: { command: "pwd" } }], // 6
    ["tool.done", { tool_call_id: "t1", status: "completed", output: "a.txt" }], // 7
    ["tool.done", { tool_call_id: "t2", status: "completed", output: "/w" }], // 8
    ["token.delta", { text: "The formatting is fine." }], // 9
    ["done", { status: "completed" }], // 10
  ]);
  const v = newRunView(R);
  for (const e of log) applyEvent(v, e);
  const at = (seq: number, terms: string[] = []) => blockForEvent(v, log[seq - 1], terms);

  it("finds the card of the tool an event belongs to, even interleaved", () => {
    expect(at(7)).toMatchObject({ kind: "tool", toolCallId: "t1" });
    expect(at(8)).toMatchObject({ kind: "tool", toolCallId: "t2" });
  });
  it("finds the reasoning block a reasoning.done closed", () => {
    expect(at(3)).toMatchObject({ kind: "reasoning", text: "let me think" });
  });
  it("finds the text of an answer that holds the matched terms", () => {
    expect(at(10, ["formatting"])).toMatchObject({ kind: "text", text: "The formatting is fine." });
    expect(at(10, ["look"])).toMatchObject({ kind: "text", text: "First I will look." });
    // No term found (e.g. tokenized differently): the answer's last text.
    expect(at(10, ["zzz"])).toMatchObject({ kind: "text", text: "The formatting is fine." });
  });
  it("never lands on the run's copy of the user message, and not on events it does not hold", () => {
    expect(at(1)).toBeUndefined();
    expect(blockForEvent(v, undefined, [])).toBeUndefined();
  });
});
