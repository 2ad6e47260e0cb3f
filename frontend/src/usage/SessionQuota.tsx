// A session's header says its vendor's quota (docs/ARCHITECTURE.md §Usage,
// Quota): "Codex: 72 % of the 5-hour window, resets 14:20". It reads
// GET /api/usage/quota once, then again only when a run of this session
// changes status on the watch bus, or when its words change by the clock
// (a reset passes, the figure turns stale: one timer at that moment) —
// nothing polls. An agent that reported no window shows nothing.
import { Gauge } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { WatchMessage } from "../transport/types";
import { nextChange, quotaFor, statusChanged } from "./sessionQuota";
import "./sessionQuota.css";
import type { QuotaLine } from "./types";

export interface SessionQuotaProps {
  sessionId: string;
  agent: string;
  api: { quota(): Promise<QuotaLine[]> };
  bus?: { subscribe(cb: (m: WatchMessage) => void): () => void };
}

export function SessionQuota({ sessionId, agent, api, bus }: SessionQuotaProps) {
  const [lines, setLines] = useState<QuotaLine[]>([]);
  // One read at a time; a change during a read asks for one more after it.
  const reading = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  const readRef = useRef<() => Promise<void>>(undefined);

  useEffect(() => {
    let live = true;
    const read = async () => {
      const r = reading.current;
      if (r.busy) {
        r.again = true;
        return;
      }
      r.busy = true;
      try {
        do {
          r.again = false;
          try {
            const all = await api.quota();
            if (live) setLines(quotaFor(all, agent));
          } catch {
            // The line is a nicety: when it cannot be read the header goes without.
          }
        } while (r.again && live);
      } finally {
        r.busy = false;
      }
    };
    void read();
    const seen = new Map<string, string>();
    const off = bus?.subscribe((m) => statusChanged(m, sessionId, seen) && void read());
    readRef.current = read;
    return () => {
      live = false;
      readRef.current = undefined;
      off?.();
    };
  }, [api, bus, sessionId, agent]);

  useEffect(() => {
    const wait = nextChange(lines, Date.now());
    if (wait === undefined) return undefined;
    // The server words the line (usage.QuotaLine): ask it again then. A
    // second more, so the moment has passed on its clock too.
    const timer = setTimeout(() => void readRef.current?.(), Math.min(wait + 1000, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [lines]);

  const first = lines[0];
  if (!first) return null;
  return (
    <span
      className={`chip session-quota${first.limited ? " tone-fail" : ""}`}
      role="status"
      aria-label={lines.map((q) => q.line).join("; ")}
      title={lines.map((q) => q.line).join("\n")}
    >
      <Gauge size={13} aria-hidden /> <span className="ellipsis">{first.line}</span>
    </span>
  );
}
