// Merge a workspace back (docs/ARCHITECTURE.md §Merge): the strategy
// (squash by default), the preview (clean, or the conflicting files with
// git's words and "Resolve with the agent"), the drafted message
// (editable), Merge, then "Archive this workspace?"; Push and Create pull
// request beside. Nothing moves until Merge; a refusal is the backend's
// sentence. After a resolving run ends the preview is asked again (the
// watch bus's run.changed, never polled).
import { useCallback, useEffect, useState } from "react";
import type { MergePreview, MergeResult } from "../../contract/wire.gen";
import { isTerminalStatus, type Workspace } from "../../transport/types";
import { causeText } from "../common/bannerError";
import { Dialog } from "../common/Dialog";
import type { Workspaces } from "../workspaces/WorkspacesContext";
import { canMerge, mergedLine, previewLine, STRATEGIES, type Strategy } from "./mergeText";
import "./merge.css";

export function MergeDialog({ workspace: w, ctx, onClose }: { workspace: Workspace; ctx: Workspaces; onClose(): void }) {
  const { api, bus } = ctx;
  const [strategy, setStrategy] = useState<Strategy>("squash");
  const [preview, setPreview] = useState<MergePreview>();
  const [message, setMessage] = useState("");
  const [edited, setEdited] = useState(false);
  const [err, setErr] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [resolving, setResolving] = useState<string>();
  const [merged, setMerged] = useState<MergeResult>();
  const [note, setNote] = useState<string>();
  const [asked, setAsked] = useState(0);

  const again = useCallback(() => setAsked((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    setPreview(undefined);
    setErr(undefined);
    api.mergePreview(w.id, strategy).then(
      (p) => {
        if (!live) return;
        setPreview(p);
        if (!edited) setMessage(p.message);
      },
      (e) => live && setErr(`Could not preview the merge: ${causeText(e)}`),
    );
    return () => {
      live = false;
    };
    // edited is read, not watched: a new preview keeps the person's text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, w.id, strategy, asked]);

  // The resolving run's end: preview again.
  useEffect(() => {
    if (!resolving || !bus) return;
    return bus.subscribe((m) => {
      if (m.type === "run.changed" && m.run?.run_id === resolving && isTerminalStatus(m.run.status)) {
        setResolving(undefined);
        again();
      }
    });
  }, [bus, resolving, again]);

  const act = async (f: () => Promise<void>) => {
    setBusy(true);
    setErr(undefined);
    try {
      await f();
    } catch (e) {
      setErr(causeText(e));
    }
    setBusy(false);
  };
  const doMerge = () => act(async () => setMerged(await api.mergeWorkspace(w.id, strategy, strategy === "rebase" ? "" : message)));
  const resolve = () =>
    act(async () => {
      const r = await api.resolveMerge(w.id, strategy);
      setResolving(r.run.run_id);
    });
  const push = () =>
    act(async () => {
      const r = await api.pushWorkspace(w.id);
      setNote(`Pushed ${r.branch} to ${r.remote}.`);
    });
  const pr = () =>
    act(async () => {
      const r = await api.openPullRequest(w.id);
      setNote(`Opened the pull request: ${r.url}`);
    });
  const archive = () =>
    act(async () => {
      const refusal = await ctx.archive(w);
      if (refusal) throw new Error(refusal);
      onClose();
    });

  const base = w.base || "the base";
  return (
    <Dialog title={`Merge ${w.branch ?? "the workspace"} into ${base}`} onClose={onClose} wide>
      {merged ? (
        <>
          <p role="status" className="merge-done">{mergedLine(merged)}</p>
          {merged.offer_archive && <p>The work is home. Archive this workspace? Its files are kept in a snapshot and the branch stays.</p>}
        </>
      ) : (
        <>
          <fieldset className="merge-strategy">
            <legend>How</legend>
            {STRATEGIES.map((s) => (
              <label key={s.value} title={s.hint}>
                <input type="radio" name="merge-strategy" value={s.value} checked={strategy === s.value} onChange={() => setStrategy(s.value)} disabled={busy} /> {s.label}
              </label>
            ))}
          </fieldset>
          {!preview && !err && <p className="wait-line" role="status">Looking at what the merge would do…</p>}
          {preview && (
            <div className="merge-preview" aria-label="Merge preview">
              <p className={preview.clean && !preview.refusal ? "tone-ok" : "tone-fail"}>{previewLine(preview)}</p>
              {preview.notes?.map((n) => <p key={n} className="quiet">{n}</p>)}
              {!preview.clean && (
                <>
                  <ul className="merge-files" aria-label="Conflicting files">
                    {preview.conflicts?.map((c) => (
                      <li key={c.path}>
                        <code>{c.path}</code>
                        {c.messages?.map((m) => <div key={m} className="quiet merge-git">{m}</div>)}
                      </li>
                    ))}
                  </ul>
                  {resolving ? (
                    <p className="wait-line" role="status">The agent is resolving the conflicts; the preview is asked again when its run ends.</p>
                  ) : (
                    <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void resolve()}>Resolve with the agent</button>
                  )}
                </>
              )}
              {preview.clean && preview.files.length > 0 && (
                <details className="merge-changed">
                  <summary>{preview.files.length} changed {preview.files.length === 1 ? "file" : "files"}</summary>
                  <ul className="merge-files">
                    {preview.files.map((f) => <li key={f}><code>{f}</code></li>)}
                  </ul>
                </details>
              )}
            </div>
          )}
          {strategy !== "rebase" && (
            <label className="merge-message">
              <span>Commit message</span>
              <textarea
                rows={5}
                value={message}
                onChange={(e) => {
                  setMessage(e.target.value);
                  setEdited(true);
                }}
              />
            </label>
          )}
        </>
      )}
      {note && <p className="control-note" role="status">{note}</p>}
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
      <div className="dialog-foot merge-foot">
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void push()}>Push</button>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void pr()}>Create pull request</button>
        <span className="spacer" />
        {merged ? (
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>Not now</button>
            {merged.offer_archive && <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void archive()}>Archive</button>}
          </>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>Cancel</button>
            <button type="button" className="btn btn-primary" disabled={busy || !canMerge(preview, message, strategy)} onClick={() => void doMerge()}>Merge</button>
          </>
        )}
      </div>
    </Dialog>
  );
}
