// Export a session (or its latest run) as Markdown or as a portable bundle
// that `hermesdesk import` brings into another data dir
// (docs/ARCHITECTURE.md §Bundles). A browser downloads it; the desktop
// window, whose web view cannot download, asks where with the native Save
// dialog (app/savefile.go) and says where it went.
import { Download, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { ApiClient } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import type { ExportFile } from "../../transport/types";

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

/**
 * Where an export went: shown says it to a person, open (when the window
 * can) shows its folder; undefined when the browser took it as a download.
 */
export type Saved = { path: string; shown: string; open?(): Promise<void> } | undefined;

/** How this transport saves an export: the window's Save dialog, else a browser download. */
export function exportSaver(t: Pick<Transport, "desktop">): (f: ExportFile) => Promise<Saved> {
  const d = t.desktop;
  if (d?.saveExport)
    return async (f) => {
      const where = await d.saveExport!(f);
      return d.showFolder ? { ...where, open: () => d.showFolder!(where.path) } : where;
    };
  return async (f) => {
    saveFile(f);
    return undefined;
  };
}

export function ExportMenu({ api, sessionId, runId, save = async (f) => void saveFile(f) }: {
  api: Pick<ApiClient, "exportSession">;
  sessionId: string;
  /** The latest run, for "this run only". */
  runId?: string;
  save?(f: ExportFile): Promise<Saved> | void;
}) {
  const [open, setOpen] = useState(false);
  const [err, setErr] = useState<string>();
  const [saved, setSaved] = useState<NonNullable<Saved>>();
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
    setSaved(undefined);
    try {
      const where = await save(await api.exportSession(sessionId, format, only));
      setOpen(false);
      if (where?.path) setSaved(where);
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
        onClick={() => {
          setSaved(undefined);
          setErr(undefined);
          setOpen((o) => !o);
        }}>
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
      {!open && err && (
        <p className="export-saved" role="alert">
          {err}
        </p>
      )}
      {saved && !err && (
        <p className="export-saved" role="status">
          Saved to <span className="export-path" title={saved.path}>{saved.shown || saved.path}</span>
          {saved.open && (
            <button type="button" className="btn btn-ghost export-open"
              onClick={() => void saved.open!().then(() => setSaved(undefined), (e: unknown) => setErr(e instanceof Error ? e.message : String(e)))}>
              Open folder
            </button>
          )}
          <button type="button" className="icon-btn export-dismiss" aria-label="Dismiss" onClick={() => setSaved(undefined)}>
            <X size={12} aria-hidden />
          </button>
        </p>
      )}
    </div>
  );
}
