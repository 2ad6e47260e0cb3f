// "Resume now" on a run that waits for its quota (docs/ARCHITECTURE.md
// §Usage, parked runs): it starts at once instead of at the reset; if the
// limit still holds it parks again, backing off.
import { Play } from "lucide-react";
import type { ControlResult } from "../transport/types";

export interface ResumeNowProps {
  runId: string;
  resume(runId: string): Promise<ControlResult>;
  /** A note (the run was not waiting any more) or an error to show. */
  onProblem(e: unknown): void;
}

export function ResumeNow({ runId, resume, onProblem }: ResumeNowProps) {
  const click = async () => {
    try {
      const r = await resume(runId);
      if (r.status !== "accepted") onProblem(r.message || "The run is not waiting for quota any more.");
    } catch (e) {
      onProblem(e);
    }
  };
  return (
    <button type="button" className="btn btn-secondary" onClick={() => void click()} title="Try the run again now instead of at the quota's reset">
      <Play size={14} aria-hidden /> Resume now
    </button>
  );
}
