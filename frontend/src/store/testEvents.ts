// Builds envelopes for tests the way the journal numbers them.
import type { RunEvent } from "../transport/types";

export function evts(runId: string, specs: [type: string, payload?: unknown][], from = 1): RunEvent[] {
  return specs.map(([type, payload], i) => {
    const seq = from + i;
    return {
      event_id: `${runId}:${seq}`,
      seq,
      run_id: runId,
      session_id: "ses_1",
      type,
      created_at: 1778750000 + seq / 10,
      terminal: type === "done",
      payload: payload ?? {},
    };
  });
}
