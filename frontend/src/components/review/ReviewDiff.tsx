// One file's diff in the Review view: the session's diff rows, numbered on
// each side, unified or side by side; a click on a line opens a comment on
// it, and the comments on a line show under it (docs/ARCHITECTURE.md
// §Review).
import { useState, type ReactNode } from "react";
import type { ReviewComment } from "../../contract/wire.gen";
import type { ReviewFileDiff } from "../../transport/api";
import { DiffView } from "../session/DiffView";
import { commentsAt, lineOf, numberedRows, quoteOf, splitRows, type DiffRow } from "./reviewDiff";
import { editKey, newKey, type CommentDrafts } from "./useCommentDrafts";

export interface LineTarget {
  path: string;
  side: "old" | "new";
  line: number;
  quote: string;
}

export interface CommentActions {
  add(t: LineTarget, text: string): Promise<string | undefined>;
  edit(c: ReviewComment, text: string): Promise<string | undefined>;
  remove(c: ReviewComment): Promise<string | undefined>;
}

/**
 * marked: this worktree's line numbers another worktree changes too (the
 * radar), drawn as such. drafts: the comments being written, kept by the
 * view (useCommentDrafts).
 */
export function ReviewDiff({ file, comments, split, actions, marked, drafts }: { file: ReviewFileDiff; comments: readonly ReviewComment[]; split: boolean; actions: CommentActions; marked?: ReadonlySet<number>; drafts: CommentDrafts }) {
  const open = drafts.open?.path === file.path ? drafts.open : undefined;
  const setOpen = drafts.setOpen;
  if (!file.diff || file.binary || file.not_compared) {
    return <DiffView file={{ path: file.path, action: file.action, seq: 0, diff: file.diff, binary: file.binary, notCompared: file.not_compared, truncated: file.truncated }} />;
  }
  const rows = numberedRows(file.diff);
  // A context line's left half (side by side) is the base's line.
  const target = (r: DiffRow, side?: "old" | "new"): LineTarget | undefined => {
    const at = r.kind === "ctx" && side === "old" && r.old !== undefined ? { side: "old" as const, line: r.old } : lineOf(r);
    return at && { path: file.path, ...at, quote: quoteOf(r) };
  };
  const cell = (r: DiffRow | undefined, key: string, side?: "old" | "new"): ReactNode => {
    if (!r) return <div key={key} className="rv-cell rv-empty" />;
    const t = target(r, side);
    const no = side === "old" ? r.old : side === "new" ? r.new : undefined;
    const overlap = side !== "old" && r.new !== undefined && r.kind !== "del" && marked?.has(r.new) ? " rv-overlap" : "";
    const nums = side ? <span className="rv-no">{no ?? ""}</span> : <><span className="rv-no">{r.old ?? ""}</span><span className="rv-no">{r.new ?? ""}</span></>;
    if (!t) return <div key={key} className={`rv-cell diff-line diff-${r.kind}${overlap}`}>{nums}<span className="rv-text">{r.text || " "}</span></div>;
    return (
      <button key={key} type="button" className={`rv-cell rv-line diff-line diff-${r.kind}${overlap}`} onClick={() => setOpen(t)} title="Comment on this line" aria-label={t.side === "old" ? `Comment on the base's line ${t.line}` : `Comment on line ${t.line}`}>
        {nums}
        <span className="rv-text">{r.text || " "}</span>
      </button>
    );
  };
  // The comments (and the open editor) under the rows they are on.
  const under = (ts: (LineTarget | undefined)[], key: string): ReactNode => {
    const here = ts.flatMap((t) => (t ? commentsAt(comments, file.path, t) : []));
    const editing = open && ts.some((t) => t && t.side === open.side && t.line === open.line) ? open : undefined;
    if (here.length === 0 && !editing) return null;
    return (
      <div key={key} className="rv-thread">
        {here.map((c) => <CommentCard key={c.id} c={c} actions={actions} drafts={drafts} />)}
        {editing && <CommentEditor target={editing} drafts={drafts} draftKey={newKey(editing)} onCancel={() => {
          drafts.done(newKey(editing));
          setOpen(undefined);
        }} onSave={async (text) => {
          const err = await actions.add(editing, text);
          if (!err) {
            drafts.done(newKey(editing));
            setOpen(undefined);
          }
          return err;
        }} />}
      </div>
    );
  };
  const out: ReactNode[] = [];
  if (split) {
    splitRows(rows).forEach((s, i) => {
      if (s.full) out.push(<div key={i} className="rv-split">{cell(s.full, "f")}</div>);
      else out.push(<div key={i} className="rv-split">{cell(s.left, "l", "old")}{cell(s.right, "r", "new")}</div>);
      const ts = s.full ? [] : [s.left && target(s.left, "old"), s.right && target(s.right, "new")];
      const u = under(ts, `u${i}`);
      if (u) out.push(u);
    });
  } else {
    rows.forEach((r, i) => {
      out.push(cell(r, String(i)));
      const u = under([target(r), r.kind === "ctx" ? target(r, "old") : undefined], `u${i}`);
      if (u) out.push(u);
    });
  }
  return (
    <div className={`diff rv-diff${split ? " rv-diff-split" : ""}`}>
      <div className="mono diff-lines rv-lines" aria-label={`Diff of ${file.path}`}>{out}</div>
      {file.truncated && <p className="quiet diff-note">The rest of this very large diff was not kept.</p>}
    </div>
  );
}

function CommentEditor({ target, initial = "", drafts, draftKey, onSave, onCancel }: { target?: LineTarget; initial?: string; drafts: CommentDrafts; draftKey: string; onSave(text: string): Promise<string | undefined>; onCancel(): void }) {
  const text = drafts.text(draftKey, initial);
  const setText = (t: string) => drafts.set(draftKey, t);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  const save = async () => {
    setBusy(true);
    setErr(await onSave(text));
    setBusy(false);
  };
  return (
    <div className="rv-editor">
      {target && <p className="quiet rv-where mono">{target.path}:{target.line}{target.side === "old" ? " (base)" : ""}</p>}
      <textarea
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Comment"
        placeholder="What should the agent do here?"
        rows={3}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void save();
          if (e.key === "Escape") {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="rv-editor-foot">
        <span className="quiet rv-keys">Ctrl+Enter {initial ? "saves" : "adds"} · Esc cancels</span>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>Cancel</button>
        <button type="button" className="btn btn-primary" disabled={busy || !text.trim()} onClick={() => void save()}>{initial ? "Save" : "Add comment"}</button>
      </div>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
    </div>
  );
}

function CommentCard({ c, actions, drafts }: { c: ReviewComment; actions: CommentActions; drafts: CommentDrafts }) {
  // Being edited while its text is kept (useCommentDrafts).
  const key = editKey(c.id);
  const editing = drafts.has(key);
  const setEditing = (on: boolean) => (on ? drafts.set(key, c.text) : drafts.done(key));
  const [err, setErr] = useState<string>();
  if (editing) {
    return <CommentEditor initial={c.text} drafts={drafts} draftKey={key} onCancel={() => setEditing(false)} onSave={async (text) => {
      const e = await actions.edit(c, text);
      if (!e) setEditing(false);
      return e;
    }} />;
  }
  return (
    <div className={`rv-comment${c.state === "sent" ? " rv-sent" : ""}`} data-comment-id={c.id}>
      <p className="rv-comment-text">{c.text}</p>
      <div className="rv-comment-foot">
        {c.state === "sent" ? <span className="quiet">Sent to the agent</span> : <span className="quiet">Draft</span>}
        {c.state === "draft" && (
          <>
            <button type="button" className="link-btn" onClick={() => setEditing(true)}>Edit</button>
            <button type="button" className="link-btn" onClick={async () => setErr(await actions.remove(c))}>Delete</button>
          </>
        )}
      </div>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
    </div>
  );
}
