// "Restore files to before this message": the preview lists every file
// that will change and the files created since (kept unless "also remove"
// is ticked); nothing is written until Restore (docs/ARCHITECTURE.md
// §Checkpoints, Restore).
import { useEffect, useState } from "react";
import type { CheckpointResult } from "../../contract/wire.gen";
import { causeText } from "../common/bannerError";
import { Dialog } from "../common/Dialog";
import { restoreLine } from "./runCheckpoints";

export function RestoreDialog({
  preview,
  apply,
  onDone,
  onClose,
}: {
  preview(): Promise<CheckpointResult>;
  apply(removeCreated: boolean): Promise<CheckpointResult>;
  onDone(res: CheckpointResult): void;
  onClose(): void;
}) {
  const [files, setFiles] = useState<CheckpointResult["files"]>();
  const [err, setErr] = useState<string>();
  const [remove, setRemove] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    preview().then(
      (r) => live && setFiles(r.files ?? []),
      (e) => live && setErr(`Could not see what would change: ${causeText(e)}`),
    );
    return () => {
      live = false;
    };
    // One preview per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const created = (files ?? []).filter((f) => f.action === "keep");
  const others = (files ?? []).filter((f) => f.action !== "keep");
  const run = async () => {
    setBusy(true);
    setErr(undefined);
    try {
      onDone(await apply(remove));
    } catch (e) {
      setErr(`Could not restore: ${causeText(e)}`);
      setBusy(false);
    }
  };
  return (
    <Dialog title="Restore files to before this message" onClose={onClose}>
      {files === undefined && !err && <p className="wait-line" role="status">Looking at what would change…</p>}
      {files && files.length === 0 && <p>The files are already as they were before this message: nothing to restore.</p>}
      {others.length > 0 && (
        <>
          <p>These files will change:</p>
          <ul className="restore-files" aria-label="Files that will change">
            {others.map((f) => (
              <li key={f.path}><code>{restoreLine(f)}</code></li>
            ))}
          </ul>
        </>
      )}
      {created.length > 0 && (
        <>
          <p>Created since this message (kept unless you choose otherwise):</p>
          <ul className="restore-files" aria-label="Files created since">
            {created.map((f) => (
              <li key={f.path}><code>{f.path}</code></li>
            ))}
          </ul>
          <label className="check-row">
            <input type="checkbox" checked={remove} onChange={(e) => setRemove(e.target.checked)} /> Also remove the files created since
          </label>
        </>
      )}
      <p className="quiet">A restore can itself be undone from this turn's footer.</p>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
      <div className="dialog-foot">
        <span className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={onClose}>Cancel</button>
        <button type="button" className="btn btn-primary" disabled={busy || !files || files.length === 0} onClick={() => void run()}>
          Restore
        </button>
      </div>
    </Dialog>
  );
}
