// A streaming parser for text/event-stream (WHATWG HTML §9.2.6), fed with
// decoded text chunks that may split lines, fields or CRLF pairs anywhere.

export interface SSEMessage {
  id?: string;
  event: string;
  data: string;
}

export interface SSEParserCallbacks {
  onMessage(m: SSEMessage): void;
  /** The `retry:` field: the server's reconnection delay in ms. */
  onRetry?(ms: number): void;
}

export class SSEParser {
  private buf = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  private hasId = false;
  private sawCR = false;
  /** The last event id seen, as EventSource keeps it for Last-Event-ID. */
  lastEventId = "";

  constructor(private readonly cb: SSEParserCallbacks) {}

  push(chunk: string): void {
    let text = chunk;
    // A CR at the end of the previous chunk already ended a line: drop the LF
    // of a CRLF pair split across chunks.
    if (this.sawCR && text.startsWith("\n")) text = text.slice(1);
    this.sawCR = false;
    this.buf += text;
    let start = 0;
    for (let i = 0; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buf.slice(start, i));
      if (c === 13) {
        if (i + 1 < this.buf.length) {
          if (this.buf.charCodeAt(i + 1) === 10) i++;
        } else {
          this.sawCR = true;
        }
      }
      start = i + 1;
    }
    this.buf = this.buf.slice(start);
  }

  /** Drops a partial event, as a dropped connection must (no dispatch). */
  reset(): void {
    this.buf = "";
    this.data = [];
    this.event = "";
    this.hasId = false;
    this.sawCR = false;
  }

  private line(l: string): void {
    if (l === "") {
      this.dispatch();
      return;
    }
    if (l.startsWith(":")) return; // comment (heartbeat)
    const colon = l.indexOf(":");
    const field = colon === -1 ? l : l.slice(0, colon);
    let value = colon === -1 ? "" : l.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.event = value;
        break;
      case "id":
        if (!value.includes("\0")) {
          this.id = value;
          this.hasId = true;
        }
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.cb.onRetry?.(Number(value));
        break;
    }
  }

  private dispatch(): void {
    if (this.hasId) this.lastEventId = this.id ?? "";
    if (this.data.length > 0) {
      this.cb.onMessage({
        id: this.hasId ? this.id : undefined,
        event: this.event || "message",
        data: this.data.join("\n"),
      });
    }
    this.data = [];
    this.event = "";
    this.hasId = false;
  }
}

/** Parses the seq out of an SSE id "run_id:seq" (the run id may hold ':'). */
export function seqFromEventId(id: string | undefined): number | undefined {
  if (!id) return undefined;
  const i = id.lastIndexOf(":");
  const n = Number(i === -1 ? id : id.slice(i + 1));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
