// A unified diff, read-only: added and removed lines coloured, headers
// folded into the file line, long diffs cut with "Show all"
// (docs/ARCHITECTURE.md §Events, file.changed).
import { FileDiff } from "lucide-react";
import { useState } from "react";
import type { ChangeTotals, FileTouch } from "../../store/model";
import { revealInvisible } from "../../text/invisible";
import { Visible } from "../../text/Visible";

/** Lines shown before "Show all". */
export const DIFF_PREVIEW_LINES = 200;

type LineKind = "add" | "del" | "hunk" | "ctx" | "meta";

function lineKind(line: string): LineKind | "header" {
  if (line.startsWith("+++ ") || line.startsWith("--- ") || line.startsWith("diff --git ") || line.startsWith("index ") ||
    /^(new|deleted) file mode|^(old|new) mode|^similarity index|^rename (from|to) /.test(line)) return "header";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  if (line.startsWith("\\")) return "meta";
  return "ctx";
}

/** The diff's body lines (file headers dropped: the file line says them). */
export function diffLines(diff: string): { kind: LineKind; text: string }[] {
  const lines = diff.endsWith("\n") ? diff.slice(0, -1).split("\n") : diff.split("\n");
  const out: { kind: LineKind; text: string }[] = [];
  for (const text of lines) {
    const kind = lineKind(text);
    if (kind !== "header") out.push({ kind, text });
  }
  return out;
}

export function Counts({ added, removed }: { added?: number; removed?: number }) {
  return (
    <span className="diff-counts mono">
      <span className="diff-added" aria-label={`${added ?? 0} lines added`}>+{added ?? 0}</span>{" "}
      <span className="diff-removed" aria-label={`${removed ?? 0} lines removed`}>−{removed ?? 0}</span>
    </span>
  );
}

/** "3 files changed, +12 −4". */
export function summaryText(t: ChangeTotals): string {
  return `${t.files} ${t.files === 1 ? "file" : "files"} changed, +${t.added} −${t.removed}`;
}

export function ChangeSummary({ totals, onOpen }: { totals: ChangeTotals; onOpen?(): void }) {
  const text = summaryText(totals);
  return onOpen ? (
    <button type="button" className="change-summary link-btn" onClick={onOpen} title="Show the run's changes">
      <FileDiff size={14} aria-hidden /> {text}
    </button>
  ) : (
    <span className="change-summary"><FileDiff size={14} aria-hidden /> {text}</span>
  );
}

/** One file's change: its diff, or why there is none. */
export function DiffView({ file }: { file: FileTouch }) {
  const [all, setAll] = useState(false);
  if (file.notCompared) return <p className="quiet diff-note">Not compared: {file.notCompared}.</p>;
  if (file.binary) return <p className="quiet diff-note">Binary file {file.action ?? "changed"}: not shown.</p>;
  if (!file.diff) return <p className="quiet diff-note">The agent named this file without saying what changed.</p>;
  const lines = diffLines(file.diff);
  const shown = all ? lines : lines.slice(0, DIFF_PREVIEW_LINES);
  return (
    <div className="diff">
      <pre className="mono diff-lines" aria-label={`Diff of ${file.path}`}>
        {shown.map((l, i) => (
          <div key={i} className={`diff-line diff-${l.kind}`}>{l.text || " "}</div>
        ))}
      </pre>
      {shown.length < lines.length && (
        <button type="button" className="link-btn diff-more" onClick={() => setAll(true)}>
          Show all {lines.length} lines
        </button>
      )}
      {file.truncated && (all || lines.length <= DIFF_PREVIEW_LINES) && (
        <p className="quiet diff-note">The rest of this very large diff was not kept.</p>
      )}
    </div>
  );
}

/** A file row that expands to its diff. */
export function FileChange({ file, defaultOpen = false }: { file: FileTouch; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <li className={`file-change${open ? " open" : ""}`}>
      <button type="button" className="file-change-line" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <FileDiff size={14} aria-hidden />
        {/* A name may hold bidi or control characters: badged, never obeyed. */}
        <span className="mono ellipsis" title={revealInvisible(file.path)}><Visible text={file.path} /></span>
        <span className="spacer" />
        {file.action && <span className="quiet">{file.action}</span>}
        {file.notCompared ? <span className="quiet">not compared: {file.notCompared}</span>
          : file.binary ? <span className="quiet">binary</span> : <Counts added={file.added} removed={file.removed} />}
      </button>
      {open && <DiffView file={file} />}
    </li>
  );
}

/** The diffs a tool call made, on its card. */
export function ToolChanges({ changes }: { changes: FileTouch[] }) {
  return (
    <section className="tool-changes">
      <h4>Changes</h4>
      <ul className="file-changes">
        {changes.map((f) => <FileChange key={f.path} file={f} defaultOpen={changes.length === 1} />)}
      </ul>
    </section>
  );
}
