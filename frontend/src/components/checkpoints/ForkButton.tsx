// "Fork from here" on a turn's footer: a new session of the same project
// and agent whose worktree starts from the checkpoint before this turn,
// the conversation before it handed to the agent with its first message;
// the window opens it (docs/ARCHITECTURE.md §Checkpoints, Fork from here).
import { GitFork } from "lucide-react";
import { useState } from "react";
import { causeText } from "../common/bannerError";
import { useSessionCheckpoints } from "./CheckpointsContext";

export function ForkButton({ turnId }: { turnId: string }) {
  const cp = useSessionCheckpoints();
  const [busy, setBusy] = useState(false);
  const [fail, setFail] = useState<string>();
  const fork = cp?.api.forkSession;
  if (!cp || !fork) return null;
  const click = async () => {
    setBusy(true);
    setFail(undefined);
    try {
      const ses = await fork.call(cp.api, cp.sessionId, turnId);
      cp.openSession?.(ses);
    } catch (e) {
      // A plain folder, or a checkpoint without its commit: the 409's sentence.
      setFail(`Could not fork: ${causeText(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => void click()}>
        <GitFork size={14} aria-hidden /> Fork from here
      </button>
      {fail && (
        <span className="control-note tone-fail" role="alert">
          {fail}
        </span>
      )}
    </>
  );
}
