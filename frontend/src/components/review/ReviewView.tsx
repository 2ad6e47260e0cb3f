// The Review view of a worktree (docs/ARCHITECTURE.md §Review): the files
// its agent changed against the merge-base with +/− and viewed boxes, the
// selected file's diff (side by side when the window is at least 1100 px
// wide), line comments with the drafts' Send, and Revert per file with a
// confirm and an Undo. Opened from the workspace chip, over the window.
import { RotateCcw, Send, TriangleAlert, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ReviewComment, Workspace } from "../../contract/wire.gen";
import type { WatchBus } from "../../store/bus";
import type { ApiClient, ReviewFileDiff } from "../../transport/api";
import { causeText } from "../common/bannerError";
import { useFocusTrap } from "../common/useFocusTrap";
import { Counts } from "../session/DiffView";
import { shortName } from "../workspaces/workspaceText";
import type { CommentActions, LineTarget } from "./ReviewDiff";
import { ReviewDiff } from "./ReviewDiff";
import { drafts, reviewSummary, sendLabel, SPLIT_MIN_WIDTH } from "./reviewDiff";
import { useReview, useWide } from "./useReview";
import { useReviewRadar } from "./useReviewRadar";
import { useCommentDrafts } from "./useCommentDrafts";
import { ReviewRadarNote } from "./ReviewRadarNote";
import "./review.css";

const STATUS_LETTER: Record<string, string> = { added: "A", modified: "M", deleted: "D", renamed: "R" };

export default function ReviewView({ workspace: w, api, bus, onClose }: { workspace: Workspace; api: ApiClient; bus?: WatchBus; onClose(): void }) {
  const { review, err, reload, setReview } = useReview(api, bus, w.id);
  const wide = useWide(SPLIT_MIN_WIDTH);
  const [selected, setSelected] = useState<string>();
  const [diff, setDiff] = useState<ReviewFileDiff>();
  const [diffErr, setDiffErr] = useState<string>();
  const [confirm, setConfirm] = useState<string>();
  const [note, setNote] = useState<{ text: string; fail?: boolean; undo?: string }>();
  const [busy, setBusy] = useState(false);
  // Over the whole window: the keyboard stays in it, and goes back to the chip's Review after.
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box, "box");
  const files = review?.files ?? [];
  const comments = review?.comments ?? [];
  const file = files.find((f) => f.path === selected) ?? files[0];
  const path = file?.path;
  const blob = file?.blob;
  const writing = useCommentDrafts();
  const radar = useReviewRadar(bus, w, diff && diff.path === path ? diff : undefined);

  useEffect(() => {
    // Esc closes what is open innermost: the revert's confirm, then the view.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        if (confirm) setConfirm(undefined);
        else onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose, confirm]);

  // The diff of the file shown, read again when its content changed.
  useEffect(() => {
    if (!path) {
      setDiff(undefined);
      return;
    }
    let live = true;
    api.reviewDiff(w.id, path).then(
      (d) => {
        if (!live) return;
        setDiff(d);
        setDiffErr(undefined);
      },
      (e) => live && setDiffErr(`Could not read the diff: ${causeText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, w.id, path, blob]);

  const attempt = useCallback(async (f: () => Promise<unknown>): Promise<string | undefined> => {
    try {
      await f();
      reload();
      return undefined;
    } catch (e) {
      return causeText(e);
    }
  }, [reload]);

  const actions: CommentActions = {
    add: (t: LineTarget, text) => attempt(() => api.addReviewComment(w.id, { path: t.path, side: t.side, line: t.line, quote: t.quote, text })),
    edit: (c: ReviewComment, text) => attempt(() => api.editReviewComment(w.id, c.id, text)),
    remove: (c: ReviewComment) => attempt(() => api.deleteReviewComment(w.id, c.id)),
  };

  const pending = drafts(comments);
  const send = async () => {
    setBusy(true);
    try {
      const res = await api.sendReview(w.id);
      setNote({ text: `Sent ${res.comments.length} ${res.comments.length === 1 ? "comment" : "comments"} to the agent as one message.` });
      reload();
    } catch (e) {
      setNote({ text: `Could not send: ${causeText(e)}`, fail: true });
    }
    setBusy(false);
  };
  const revert = async (p: string) => {
    setBusy(true);
    setConfirm(undefined);
    try {
      const res = await api.revertFile(w.id, p);
      setNote({ text: `Reverted ${p} to the base's version.`, undo: res.checkpoint?.id });
      reload();
    } catch (e) {
      setNote({ text: `Could not revert ${p}: ${causeText(e)}`, fail: true });
    }
    setBusy(false);
  };
  const undo = async (id: string) => {
    setBusy(true);
    try {
      await api.undoCheckpoint(id);
      setNote({ text: "The revert was undone: the file is back as it was." });
      reload();
    } catch (e) {
      setNote({ text: `Could not undo the revert: ${causeText(e)}`, fail: true });
    }
    setBusy(false);
  };
  // Ticked at once; the review read again after says what was saved.
  const toggleViewed = (p: string, b: string, viewed: boolean) => {
    setReview((r) => r && { ...r, files: r.files.map((f) => (f.path === p ? { ...f, viewed } : f)) });
    void attempt(() => api.markViewed(w.id, p, b, viewed)).then((e) => {
      if (!e) return;
      setNote({ text: `Could not mark ${p}: ${e}`, fail: true });
      reload();
    });
  };

  const name = shortName(w);
  return (
    <div ref={box} className="rv-overlay" role="dialog" aria-modal="true" aria-label={`Review of ${name}`} tabIndex={-1}>
      <header className="rv-head">
        <h2 className="ellipsis">Review <span className="mono">{name}</span></h2>
        <span className="quiet rv-against">against {review?.base || w.base}{review && ` · ${reviewSummary(files)}`}</span>
        <span className="spacer" />
        <button type="button" className="btn btn-primary rv-send" disabled={busy || pending.length === 0} onClick={() => void send()} title={pending.length ? "Send the draft comments to the workspace's agent as one message" : "Click a line of the diff to write a comment; the drafts go to the agent together"}>
          <Send size={14} aria-hidden /> {sendLabel(pending.length)}
        </button>
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Close the review">
          <X size={16} />
        </button>
      </header>
      {(note || err) && (
        <p className={`control-note rv-note${note?.fail || err ? " tone-fail" : ""}`} role={note?.fail || err ? "alert" : "status"}>
          {err ?? note?.text}
          {note?.undo && !err && (
            <button type="button" className="link-btn" disabled={busy} onClick={() => void undo(note.undo!)}>Undo</button>
          )}
        </p>
      )}
      {review && files.length === 0 && <p className="quiet rv-empty-note">No changes against {review.base} yet.</p>}
      {files.length > 0 && (
        <div className="rv-body">
          <ul className="rv-files" aria-label="Changed files">
            {files.map((f) => (
              <li key={f.path} className={f.path === file?.path ? "on" : undefined}>
                <input type="checkbox" checked={f.viewed} onChange={(e) => toggleViewed(f.path, f.blob, e.target.checked)} aria-label={`Viewed ${f.path}`} title="Viewed" />
                <button type="button" className="rv-file link-btn mono ellipsis" onClick={() => setSelected(f.path)} aria-current={f.path === file?.path ? "true" : undefined} title={f.old_path ? `${f.old_path} → ${f.path}` : f.path}>
                  {f.path}
                </button>
                {radar.paths.has(f.path) && (
                  <span className="rv-radar-mark" role="img" title="Another worktree changes this file too: its diff says which lines" aria-label="Another worktree changes this file too">
                    <TriangleAlert size={12} aria-hidden />
                  </span>
                )}
                <span className={`rv-status rv-${f.status}`} title={f.status}>{STATUS_LETTER[f.status] ?? "?"}</span>
                {f.binary || f.not_compared ? <span className="quiet">{f.binary ? "binary" : "large"}</span> : <Counts added={f.added} removed={f.removed} />}
              </li>
            ))}
          </ul>
          <section className="rv-main" aria-label={file ? `Changes in ${file.path}` : undefined}>
            {file && (
              <div className="rv-file-head">
                <span className="mono ellipsis" title={file.path}>{file.old_path ? `${file.old_path} → ${file.path}` : file.path}</span>
                <span className="spacer" />
                <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => setConfirm(file.path)} title="Put this file back as it is on the base, in the worktree only; undoable">
                  <RotateCcw size={14} aria-hidden /> Revert
                </button>
              </div>
            )}
            {confirm && (
              <div className="rv-confirm" role="alertdialog" aria-label="Revert the file">
                <p>
                  Revert <code>{confirm}</code> to the base's version{file?.status === "added" ? " (it is not on the base, so it is deleted)" : file?.status === "renamed" ? ` (back to its old name, ${file.old_path})` : ""}? A checkpoint is kept first: Undo brings it back.
                </p>
                <button type="button" className="btn btn-ghost" autoFocus onClick={() => setConfirm(undefined)}>Cancel</button>
                <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void revert(confirm)}>Revert</button>
              </div>
            )}
            {file && diff?.path === file.path && <ReviewRadarNote overlaps={radar.file} order={radar.order} />}
            {diffErr && <p className="control-note tone-fail" role="alert">{diffErr}</p>}
            {diff && file && diff.path === file.path && <ReviewDiff file={diff} comments={comments} split={wide} actions={actions} marked={radar.marked} drafts={writing} />}
          </section>
        </div>
      )}
    </div>
  );
}
