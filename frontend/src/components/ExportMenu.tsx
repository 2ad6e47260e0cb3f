// Export a session (or its latest run) as Markdown or as a portable bundle
// that `hermesdesk import` brings into another data dir
// (docs/ARCHITECTURE.md §Bundles).
import { Download } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { ApiClient } from "../transport/api";
import type { ExportFile } from "../transport/types";

/** Hands the file to the browser as a download. */
export function saveFile(f: ExportFile, doc: Document = document) {
  const url = URL.createObjectURL(new Blob([f.content], { type: f.content_type }));
  const a = doc.createElement("a");
  a.href = url;
  a.download = f.filename;
  a.rel = "noopener";
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportMenu({ api, sessionId, runId, save = saveFile }: {
  api: Pick<ApiClient, "exportSession">;
  sessionId: string;
  /** The latest run, for "this run only". */
  runId?: string;
  save?(f: ExportFile): void;
}) {
  const [open, setOpen] = useState(false);
  const [err, setErr] = useState<string>();
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    window.addEventListener("mousedown", close);
    return () => window.removeEventListener("mousedown", close);
  }, [open]);

  const run = async (format: "markdown" | "bundle", only?: string) => {
    setBusy(true);
    setErr(undefined);
    try {
      save(await api.exportSession(sessionId, format, only));
      setOpen(false);
    } catch (e) {
      setErr(e instanceof Error ? e.message : "The export failed.");
    } finally {
      setBusy(false);
    }
  };
  const items: [string, "markdown" | "bundle", string | undefined][] = [
    ["Session as Markdown", "markdown", undefined],
    ["Session as bundle (for import)", "bundle", undefined],
  ];
  if (runId) items.push(["Latest run as Markdown", "markdown", runId], ["Latest run as bundle", "bundle", runId]);
  return (
    <div className="export-menu" ref={root}>
      <button type="button" className="icon-btn" aria-haspopup="menu" aria-expanded={open} aria-label="Export"
        title={open ? undefined : "Export"} // a tooltip must not cover the open menu
        onClick={() => setOpen((o) => !o)}>
        <Download size={16} />
      </button>
      {open && (
        <div className="export-pop" role="menu" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
          {items.map(([label, format, only]) => (
            <button key={label} type="button" role="menuitem" className="export-item" disabled={busy} onClick={() => void run(format, only)}>
              {label}
            </button>
          ))}
          {err && <p className="export-err" role="alert">{err}</p>}
        </div>
      )}
    </div>
  );
}
