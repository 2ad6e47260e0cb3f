// The window never leaves the app: a dropped file, a link or window.open
// must not replace the UI with another page (in the desktop app that page
// would run next to the bound Go methods; see
// docs/ARCHITECTURE.md §Window and §Security). Links go out through openExternal.

import { openAllowed } from "../components/common/external";

/** The absolute paths in a files:attach or files:dropped event; anything else is ignored. */
export function droppedPaths(payload: unknown): string[] {
  if (!Array.isArray(payload)) return [];
  return payload.filter((p): p is string => typeof p === "string" && (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p)));
}

/** Joins dropped absolute paths for the composer: relative inside the project. */
export function dropText(paths: string[], workspace?: string): string {
  const root = workspace ? workspace.replace(/[\\/]+$/, "") : "";
  return paths
    .map((p) => {
      let rel = p;
      if (root && (p.startsWith(root + "/") || p.startsWith(root + "\\"))) rel = p.slice(root.length + 1);
      // A path with spaces stays one word for the agent.
      return /\s/.test(rel) ? `"${rel}"` : rel;
    })
    .join(" ");
}

/**
 * Installs the document-wide guards and returns their remover.
 * - dragover/drop: default prevented everywhere, so a browser or webview
 *   never opens the dropped file; onDrop gets the names the page can see.
 * - clicks on <a href>: never followed in the window (Markdown opens its
 *   links outside with openExternal; nothing else links anywhere).
 * - window.open: refused unless it comes from openExternal.
 */
export function installGuards(win: Window & typeof globalThis, onDrop?: (names: string[], target: EventTarget | null) => void): () => void {
  const doc = win.document;
  const onDragOver = (e: DragEvent) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
  };
  const onDropEvt = (e: DragEvent) => {
    e.preventDefault();
    const files = e.dataTransfer?.files;
    const names = files ? Array.from(files, (f) => f.name) : [];
    if (names.length > 0) onDrop?.(names, e.target);
  };
  const onClick = (e: MouseEvent) => {
    const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!a) return;
    const href = a.getAttribute("href") ?? "";
    if (href.startsWith("#")) return; // in-page anchors are harmless
    // A download link saves a file (an export): it does not navigate.
    if (a.hasAttribute("download") && /^(blob|data):/.test(a.href)) return;
    e.preventDefault();
  };
  const open = win.open;
  win.open = ((url?: string | URL, target?: string, features?: string) => {
    if (openAllowed()) return open.call(win, url, target, features);
    return null;
  }) as typeof win.open;
  doc.addEventListener("dragover", onDragOver, true);
  doc.addEventListener("drop", onDropEvt, true);
  doc.addEventListener("click", onClick, true);
  doc.addEventListener("auxclick", onClick, true);
  return () => {
    doc.removeEventListener("dragover", onDragOver, true);
    doc.removeEventListener("drop", onDropEvt, true);
    doc.removeEventListener("click", onClick, true);
    doc.removeEventListener("auxclick", onClick, true);
    win.open = open;
  };
}
