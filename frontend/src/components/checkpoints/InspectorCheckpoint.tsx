// The inspector's "Checkpoint" section for the run it shows: the same
// actions as the turn's footer (RunCheckpointBar), once the run has ended.
import { useSessionCheckpoints } from "./CheckpointsContext";
import { RunCheckpointBar } from "./RunCheckpointBar";
import { runCheckpoints } from "./runCheckpoints";

export function InspectorCheckpoint({ runId, ended }: { runId: string; ended: boolean }) {
  const cp = useSessionCheckpoints();
  if (!ended || !cp || !runCheckpoints(cp.records, runId).run) return null;
  return (
    <section>
      <h3>Checkpoint</h3>
      <RunCheckpointBar runId={runId} />
    </section>
  );
}
