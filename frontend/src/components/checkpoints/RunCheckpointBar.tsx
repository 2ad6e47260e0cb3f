// A run's footer piece for its checkpoint: "Undo this run" / "Redo",
// "Restore files to before this message" (a preview first), and the lines
// saying when an undo or restore happened (docs/ARCHITECTURE.md
// §Checkpoints). Absent when the run has no checkpoint (checkpoints off,
// a folder not checkpointed, pruned).
import { History, Redo2, Undo2 } from "lucide-react";
import { useMemo, useState } from "react";
import { createPortal } from "react-dom";
import type { CheckpointResult } from "../../contract/wire.gen";
import { causeText } from "../common/bannerError";
import { useSessionCheckpoints } from "./CheckpointsContext";
import { ForkButton } from "./ForkButton";
import { RestoreDialog } from "./RestoreDialog";
import { runCheckpoints } from "./runCheckpoints";
import "./checkpoints.css";

/** What an applied undo or restore did, in a sentence. */
export function resultText(doing: string, res: CheckpointResult): string {
  const changed = res.files.filter((f) => f.action !== "leave" && f.action !== "keep" && f.action !== "skip").length;
  const kept = res.files.filter((f) => f.action === "keep").length;
  const left = res.files.filter((f) => f.action === "skip").map((f) => f.path);
  let s = changed === 0 ? `${doing}: no file needed changing.` : `${doing}: ${changed} ${changed === 1 ? "file" : "files"} changed.`;
  if (kept) s += ` ${kept} created since kept.`;
  if (left.length) s += ` Left as is: ${left.join(", ")}.`;
  return s;
}

export function RunCheckpointBar({ runId }: { runId: string }) {
  const cp = useSessionCheckpoints();
  const state = useMemo(() => (cp ? runCheckpoints(cp.records, runId) : undefined), [cp, runId]);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ text: string; fail?: boolean }>();
  const [restoring, setRestoring] = useState(false);
  if (!cp || !state?.run) return null;
  const turnId = state.run.turn_id;

  const act = async (doing: string, f: () => Promise<CheckpointResult>) => {
    setBusy(true);
    setMsg(undefined);
    try {
      const res = await f();
      cp.put(res.checkpoint);
      setMsg({ text: resultText(doing, res) });
    } catch (e) {
      // A conflict's sentence names the files changed since; nothing was written.
      setMsg({ text: `Could not ${doing.toLowerCase()}: ${causeText(e)}`, fail: true });
    } finally {
      setBusy(false);
    }
  };
  const undo = () => act("Undo", () => (state.undo ? cp.api.undoCheckpoint(state.undo.id) : cp.api.undoRun(runId)));
  return (
    <div className="checkpoint-bar">
      {state.notes.map((n) => (
        <p key={n.id} className="checkpoint-note quiet">
          <History size={13} aria-hidden /> {n.text}
        </p>
      ))}
      <div className="checkpoint-actions">
        {state.redo ? (
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => void act("Redo", () => cp.api.undoCheckpoint(state.redo!.id))}>
            <Redo2 size={14} aria-hidden /> Redo
          </button>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => void undo()}>
            <Undo2 size={14} aria-hidden /> Undo this run
          </button>
        )}
        {turnId && (
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => setRestoring(true)}>
            Restore files to before this message
          </button>
        )}
        {turnId && !state.run.shadow && <ForkButton turnId={turnId} />}
        {state.restored && (
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => void act("Undo the restore", () => cp.api.undoCheckpoint(state.restored!.id))}>
            Undo the restore
          </button>
        )}
      </div>
      {msg && (
        <p className={`control-note${msg.fail ? " tone-fail" : ""}`} role={msg.fail ? "alert" : "status"}>
          {msg.text}
        </p>
      )}
      {/* Out of the transcript's virtual list: its rows are transformed, which
          would hold a fixed backdrop inside the row. */}
      {restoring && turnId && createPortal(
        <RestoreDialog
          preview={() => cp.api.restoreTurn(cp.sessionId, turnId, { preview: true })}
          apply={(removeCreated) => cp.api.restoreTurn(cp.sessionId, turnId, { removeCreated })}
          onDone={(res) => {
            cp.put(res.checkpoint);
            setMsg({ text: resultText("Restore", res) });
            setRestoring(false);
          }}
          onClose={() => setRestoring(false)}
        />,
        document.body,
      )}
    </div>
  );
}
