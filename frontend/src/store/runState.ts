// The run state machine, as backend/run/next.go defines it
// (docs/ARCHITECTURE.md §Run state machine). runState.test.ts replays the
// Go table (backend/run/testdata/transitions.json) through nextState, so
// the window can never show a status the journal would not derive.
import type { RunStatus } from "../transport/types";
import { isTerminalStatus } from "../transport/types";

export interface RunStateFields {
  status: RunStatus | "" | "unknown";
  pendingApprovalId?: string;
  pendingClarifyId?: string;
  /** A parked run's resume time (RFC 3339) and how often it parked. */
  resumesAt?: string;
  parkAttempts?: number;
}

const NON_TERMINAL: ReadonlySet<string> = new Set([
  "queued",
  "running",
  "awaiting_approval",
  "awaiting_clarify",
  "cancelling",
  "paused",
  "parked",
]);

type P = Record<string, unknown>;
const obj = (v: unknown): P => (v && typeof v === "object" && !Array.isArray(v) ? (v as P) : {});
const str = (p: P, k: string): string | undefined =>
  typeof p[k] === "string" && p[k] !== "" ? (p[k] as string) : undefined;
const num = (p: P, k: string): number => (typeof p[k] === "number" ? (p[k] as number) : 0);

/** The state after one event; never throws, unknown input changes nothing. */
export function nextState(s: RunStateFields, type: string, payload: unknown): RunStateFields {
  if (isTerminalStatus(s.status)) return s;
  const p = obj(payload);
  switch (type) {
    case "run.started":
      if (s.status === "" || s.status === "unknown" || s.status === "queued" || s.status === "parked")
        return { ...s, status: "running", resumesAt: undefined };
      return s;
    case "status": {
      const st = str(p, "status");
      if (!st || !NON_TERMINAL.has(st)) return s;
      if (st !== "parked") return { ...s, status: st as RunStatus, resumesAt: undefined };
      // Parked: the agent is gone, so no prompt stays pending.
      const attempts = Math.max(s.parkAttempts ?? 0, num(p, "attempt")) || undefined;
      return { status: "parked", resumesAt: str(p, "resumes_at"), parkAttempts: attempts };
    }
    case "approval.requested": {
      // A second approval leaves the older one pending.
      const id = str(p, "approval_id");
      return id ? { ...s, status: "awaiting_approval", pendingApprovalId: s.pendingApprovalId ?? id } : s;
    }
    case "approval.resolved": {
      // Resolving the pending one moves to the oldest still waiting (next_pending).
      const id = str(p, "approval_id");
      if (!id || id !== s.pendingApprovalId) return s;
      const next = str(p, "next_pending");
      return { ...s, pendingApprovalId: next, status: s.status === "awaiting_approval" && !next ? "running" : s.status };
    }
    case "clarify.requested": {
      const id = str(p, "clarify_id");
      return id ? { ...s, status: "awaiting_clarify", pendingClarifyId: id } : s;
    }
    case "clarify.resolved": {
      const id = str(p, "clarify_id");
      if (!id || id !== s.pendingClarifyId) return s;
      return { ...s, pendingClarifyId: undefined, status: s.status === "awaiting_clarify" ? "running" : s.status };
    }
    case "done": {
      const st = str(p, "status");
      return {
        status: st && isTerminalStatus(st) ? (st as RunStatus) : "completed",
        ...(s.parkAttempts ? { parkAttempts: s.parkAttempts } : {}),
      };
    }
  }
  return s;
}
