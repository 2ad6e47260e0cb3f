import { InlineCode } from "../common/InlineCode";
import { Brain, ChevronRight, FilePen, FileText, Globe, Search, SquareTerminal, Wrench } from "lucide-react";
import { memo, useEffect, useId, useRef, useState } from "react";
import type { ToolBlock } from "../../store/model";
import { revealInvisible } from "../../text/invisible";
import { Visible } from "../../text/Visible";
import { statusLook } from "../common/StatusBadge";
import { ToolChanges } from "./DiffView";

function kindIcon(kind: string | undefined, name: string) {
  const k = kind ?? name.toLowerCase();
  if (/exec|bash|shell|command|run/.test(k)) return <SquareTerminal size={14} aria-hidden />;
  if (/edit|write|patch|delete|move/.test(k)) return <FilePen size={14} aria-hidden />;
  if (/read|view|cat/.test(k)) return <FileText size={14} aria-hidden />;
  if (/search|grep|glob|find/.test(k)) return <Search size={14} aria-hidden />;
  if (/fetch|web|http/.test(k)) return <Globe size={14} aria-hidden />;
  if (/think/.test(k)) return <Brain size={14} aria-hidden />;
  return <Wrench size={14} aria-hidden />;
}

/**
 * An argv as a shell would read it, so a card reads as what runs:
 * ["bash","-lc","a && b"] is `bash -lc 'a && b'`, never `bash -lc a && b`
 * (the approval card gets the same from the backend: al.essio.dev/pkg/shellescape).
 */
export function shellQuote(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(" ");
}

/** The one argument that says what the call does (a command, a path…). */
export function shortArg(input: unknown, title?: string): string {
  if (title) return title;
  if (typeof input === "string") return input;
  if (input && typeof input === "object") {
    const o = input as Record<string, unknown>;
    for (const k of ["command", "cmd", "path", "file_path", "file", "pattern", "query", "url", "description"]) {
      const v = o[k];
      if (typeof v === "string" && v) return v;
      if (Array.isArray(v) && v.every((x) => typeof x === "string")) return shellQuote(v as string[]);
    }
    const first = Object.values(o).find((v) => typeof v === "string");
    if (typeof first === "string") return first;
  }
  return "";
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || ms < 0) return "";
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  return `${Math.floor(s / 60)} m ${Math.round(s % 60)} s`;
}

function toolStatus(status: string): string {
  if (status === "running" || status === "pending" || status === "in_progress") return "running";
  if (status === "denied") return "cancelled";
  return status;
}

export const ToolCard = memo(function ToolCard({ block, defaultOpen = false }: { block: ToolBlock; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  const card = useRef<HTMLDivElement>(null);
  // An expanded card shows its body: bring it into view if it opened below the fold.
  useEffect(() => {
    if (open) card.current?.scrollIntoView?.({ block: "nearest" });
  }, [open]);
  const look = statusLook(toolStatus(block.status), 14);
  // Agents often title a call like its name ("Read README.md"): show the
  // argument instead of saying it twice.
  const arg = shortArg(block.input, block.title && block.title !== block.name ? block.title : undefined);
  const statusText = block.status === "denied" ? "Denied" : look.label;
  return (
    <div ref={card} className={`tool-card${open ? " open" : ""}`} data-tone={look.tone}>
      <button
        type="button"
        className="tool-line"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <ChevronRight size={14} className="chev" aria-hidden />
        <span className="tool-icon">{kindIcon(block.toolKind, block.name)}</span>
        <span className="tool-name">
          <InlineCode text={block.name} />
        </span>
        {arg && (
          <span className="tool-arg mono" title={revealInvisible(arg)}>
            <Visible text={arg} />
          </span>
        )}
        <span className="spacer" />
        <span className={`tool-status tone-${look.tone}`} title={statusText}>
          {look.icon}
          <span className="sr-only">{statusText}</span>
        </span>
        <span className="tool-dur mono">{formatDuration(block.durationMs)}</span>
      </button>
      {open && (
        <div className="tool-body" id={id}>
          {block.input !== undefined && (
            <section>
              <h4>Arguments</h4>
              <pre className="mono">
                <Visible text={typeof block.input === "string" ? block.input : JSON.stringify(block.input, null, 2)} />
              </pre>
            </section>
          )}
          {block.changes && block.changes.length > 0 && <ToolChanges changes={block.changes} />}
          <section>
            <h4>Output{block.truncated ? " (beginning trimmed)" : ""}</h4>
            {block.output ? (
              <pre className="mono tool-output">
                <Visible text={block.output} />
              </pre>
            ) : (
              <p className="quiet">{look.tone === "running" ? "Waiting for output…" : "No output."}</p>
            )}
          </section>
          <p className="tool-exit">
            {statusText}
            {block.exitCode !== undefined && <> · exit code <span className="mono">{block.exitCode}</span></>}
            {block.durationMs !== undefined && <> · {formatDuration(block.durationMs)}</>}
            {block.error && <> · {block.error}</>}
          </p>
        </div>
      )}
    </div>
  );
});
