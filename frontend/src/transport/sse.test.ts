import { describe, expect, it } from "vitest";
import { SSEParser, seqFromEventId, type SSEMessage } from "./sse";

function parse(chunks: string[]): { msgs: SSEMessage[]; retry: number[]; p: SSEParser } {
  const msgs: SSEMessage[] = [];
  const retry: number[] = [];
  const p = new SSEParser({ onMessage: (m) => msgs.push(m), onRetry: (n) => retry.push(n) });
  for (const c of chunks) p.push(c);
  return { msgs, retry, p };
}

const stream = 'retry: 2000\n: heartbeat\n\nid: r:1\nevent: token.delta\ndata: {"a":1}\n\nid: r:2\nevent: done\ndata: line1\ndata: line2\n\n';

describe("SSEParser", () => {
  it("parses fields, comments, multi-line data and retry", () => {
    const { msgs, retry, p } = parse([stream]);
    expect(msgs).toEqual([
      { id: "r:1", event: "token.delta", data: '{"a":1}' },
      { id: "r:2", event: "done", data: "line1\nline2" },
    ]);
    expect(retry).toEqual([2000]);
    expect(p.lastEventId).toBe("r:2");
  });

  it("gives the same result however the stream is split", () => {
    const want = parse([stream]).msgs;
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      expect(parse(chunks).msgs).toEqual(want);
    }
  });

  it("accepts CRLF and CR line ends, even split across chunks", () => {
    const crlf = stream.replace(/\n/g, "\r\n");
    const cr = stream.replace(/\n/g, "\r");
    const want = parse([stream]).msgs;
    expect(parse([crlf]).msgs).toEqual(want);
    expect(parse([cr]).msgs).toEqual(want);
    const chunks: string[] = [];
    for (let i = 0; i < crlf.length; i += 3) chunks.push(crlf.slice(i, i + 3));
    expect(parse(chunks).msgs).toEqual(want);
  });

  it("does not dispatch an event without its blank line and drops it on reset", () => {
    const { msgs, p } = parse(["id: r:9\ndata: partial"]);
    expect(msgs).toEqual([]);
    p.reset();
    p.push("\n\n");
    expect(msgs).toEqual([]);
  });

  it("handles fields without a space, without a value, and unknown fields", () => {
    expect(parse(["data:x\nfoo: bar\nevent\ndata\n\n"]).msgs).toEqual([{ id: undefined, event: "message", data: "x\n" }]);
  });
});

describe("seqFromEventId", () => {
  it.each([
    ["run_7f3:42", 42],
    ["a:b:7", 7],
    ["5", 5],
    ["run:x", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%s → %s", (id, want) => expect(seqFromEventId(id)).toBe(want));
});
