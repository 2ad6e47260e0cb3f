// Attachments in the composer: chips for files picked, dropped or pasted,
// each removable before sending. A browser file has no path, so it is sent
// through POST /api/uploads first and attached by the path the server
// gives back; the message itself only ever carries paths
// (docs/ARCHITECTURE.md §Attachments).
import { FileText, Image as ImageIcon, Loader2, Paperclip, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from "react";
import type { Transport } from "../../transport/transport";

/** The service's limits (backend/service/attachments.go). */
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 20 << 20;

export interface Uploaded {
  path: string;
  name: string;
  size: number;
}

/** How files get in: an upload for path-less files, a native picker when there is one. */
export interface AttachSource {
  upload?(file: Blob, name: string): Promise<Uploaded>;
  /**
   * The clipboard's image read by the window itself, uploaded under name
   * (the desktop window: its page sees only the clipboard's text); null
   * when the clipboard holds none.
   */
  pasteImage?(name: string): Promise<Uploaded | null>;
  /** A native file dialog (the desktop window); resolves [] when cancelled. */
  pickFiles?(): Promise<string[]>;
  /**
   * The window hands dropped files over by path itself (the Linux desktop
   * window: app/wails.go emits files:attach), so a drop on the message box
   * uploads nothing: the same file would be attached twice.
   */
  nativeDrops?: boolean;
  /**
   * Paths of this computer (a native drop, files:attach) are not the
   * agent's (a host's session): their bytes are uploaded and the path the
   * host answers is attached (transport uploadFile).
   */
  uploadPath?(path: string): Promise<Uploaded>;
}

export interface Chip {
  id: string;
  name: string;
  size?: number;
  path?: string;
  uploading: boolean;
}

export function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

export function humanSize(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${Math.floor(n / (1 << 10))} KiB`;
  return `${n} B`;
}

function isImage(name: string): boolean {
  return /\.(png|jpe?g|gif|webp|bmp|svg)$/i.test(name);
}

let seq = 0;
const nextId = () => `att-${++seq}`;

/** A pasted image has a generic name; give it one a person can tell apart. */
function pastedName(f: { type: string }): string {
  const ext = f.type.startsWith("image/") ? f.type.slice(6).replace("jpeg", "jpg").replace(/\+.*/, "") : "bin";
  const t = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return `pasted-${t}.${ext}`;
}

export function useAttachments(src: AttachSource) {
  const [chips, setChips] = useState<Chip[]>([]);
  const [note, setNote] = useState("");
  const count = useRef(0);
  count.current = chips.length;

  const room = (n: number): number => {
    const left = MAX_ATTACHMENTS - count.current;
    if (n > left) setNote(`At most ${MAX_ATTACHMENTS} attachments per message.`);
    return Math.max(0, Math.min(n, left));
  };

  const addPaths = useCallback(
    (paths: string[]) => {
      setNote("");
      const take = paths.slice(0, room(paths.length));
      count.current += take.length;
      const up = src.uploadPath;
      if (!up) {
        setChips((cur) => [...cur, ...take.map((p) => ({ id: nextId(), name: baseName(p), path: p, uploading: false }))]);
        return;
      }
      for (const p of take) {
        const id = nextId();
        const name = baseName(p);
        setChips((cur) => [...cur, { id, name, uploading: true }]);
        up(p).then(
          (u) => setChips((cur) => cur.map((c) => (c.id === id ? { ...c, path: u.path, size: u.size, uploading: false } : c))),
          (e: unknown) => {
            setChips((cur) => cur.filter((c) => c.id !== id));
            setNote(`${name} could not be attached: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
      }
    },
    [src],
  );

  const addFiles = useCallback(
    (files: File[], pasted = false) => {
      setNote("");
      const ok: File[] = [];
      for (const f of files) {
        if (f.size > MAX_ATTACHMENT_BYTES) {
          setNote(`${f.name || "The file"} is ${humanSize(f.size)}; an attachment can be at most ${MAX_ATTACHMENT_BYTES >> 20} MiB.`);
        } else if (f.size === 0 && !f.type) {
          setNote(`${f.name || "The file"} is empty or a folder; attach files only.`);
        } else ok.push(f);
      }
      const take = ok.slice(0, room(ok.length));
      count.current += take.length;
      for (const f of take) {
        const name = pasted || !f.name ? pastedName(f) : f.name;
        if (!src.upload) {
          setNote("This window cannot upload files; attach them with the paperclip instead.");
          count.current--;
          continue;
        }
        const id = nextId();
        setChips((cur) => [...cur, { id, name, size: f.size, uploading: true }]);
        src.upload(f, name).then(
          (u) => setChips((cur) => cur.map((c) => (c.id === id ? { ...c, path: u.path, size: u.size, uploading: false } : c))),
          (e: unknown) => {
            setChips((cur) => cur.filter((c) => c.id !== id));
            setNote(`${name} could not be attached: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
      }
    },
    [src],
  );

  const remove = useCallback((id: string) => {
    setNote("");
    setChips((cur) => cur.filter((c) => c.id !== id));
  }, []);
  const clear = useCallback(() => setChips([]), []);

  const pick = useCallback(async () => {
    if (!src.pickFiles) return;
    try {
      addPaths(await src.pickFiles());
    } catch (e) {
      setNote(`The file chooser failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, [src, addPaths]);

  const onDragOver = (e: DragEvent) => {
    if (Array.from(e.dataTransfer?.types ?? []).includes("Files")) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    }
  };
  const onDrop = (e: DragEvent) => {
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length === 0) return; // text or a link: the page's guard stops it
    e.preventDefault();
    if (!src.nativeDrops) addFiles(files);
  };
  // The clipboard's image as the desktop window reads it (AttachSource.pasteImage).
  const pasteNative = useCallback(async () => {
    if (!src.pasteImage || room(1) === 0) return;
    const name = pastedName({ type: "image/png" });
    const id = nextId();
    count.current++;
    setChips((cur) => [...cur, { id, name, uploading: true }]);
    try {
      const u = await src.pasteImage(name);
      if (u) setChips((cur) => cur.map((c) => (c.id === id ? { ...c, path: u.path, size: u.size, uploading: false } : c)));
      else setChips((cur) => cur.filter((c) => c.id !== id)); // no image: the paste was empty
    } catch (e) {
      setChips((cur) => cur.filter((c) => c.id !== id));
      setNote(`The pasted image could not be attached: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, [src]);
  const onPaste = (e: ClipboardEvent) => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) {
      // Text pastes as usual. Nothing at all: the desktop window's page is
      // shown only the clipboard's text, so ask the window for its image.
      if (!e.clipboardData?.getData("text/plain")) void pasteNative();
      return;
    }
    e.preventDefault();
    addFiles(files, true);
  };

  return {
    chips,
    note,
    setNote,
    addPaths,
    addFiles,
    remove,
    clear,
    pick,
    canPick: !!src.pickFiles || !!src.upload,
    paths: chips.flatMap((c) => (c.path && !c.uploading ? [c.path] : [])),
    uploading: chips.some((c) => c.uploading),
    dropProps: { onDragOver, onDrop },
    onPaste,
  };
}

export type Attachments = ReturnType<typeof useAttachments>;

/**
 * The paperclip: a native dialog in the desktop window, a file input in the
 * browser. onDone runs once the chooser has closed (files taken or not), so
 * the composer takes the keyboard back: typing must not go to the paperclip,
 * where Space would open the chooser again.
 */
export function AttachButton({ att, src, disabled, onDone }: { att: Attachments; src: AttachSource; disabled?: boolean; onDone?(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(onDone);
  done.current = onDone;
  // A browser's chooser closed with nothing picked fires "cancel" (React has no prop for it).
  useEffect(() => {
    const el = input.current;
    const cancel = () => setTimeout(() => done.current?.(), 0);
    el?.addEventListener("cancel", cancel);
    return () => el?.removeEventListener("cancel", cancel);
  }, [src.pickFiles]);
  if (!att.canPick) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost attach-btn"
        aria-label="Attach files"
        title="Attach files (or drop them here, or paste an image)"
        disabled={disabled}
        onClick={() => (src.pickFiles ? void att.pick().then(onDone) : input.current?.click())}
      >
        <Paperclip size={16} aria-hidden />
      </button>
      {!src.pickFiles && (
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(e) => {
            att.addFiles(Array.from(e.target.files ?? []));
            e.target.value = "";
            // After the browser is done with its chooser (it may still move the focus).
            setTimeout(() => done.current?.(), 0);
          }}
        />
      )}
    </>
  );
}

/** The chips above the message, each with its remove button. */
export function AttachmentChips({ att }: { att: Attachments }) {
  if (att.chips.length === 0 && !att.note) return null;
  return (
    <div className="attach-row">
      {att.chips.length > 0 && (
        <ul className="attach-chips" aria-label="Attachments">
          {att.chips.map((c) => (
            <li key={c.id} className={`attach-chip${c.uploading ? " uploading" : ""}`} title={c.path ?? c.name}>
              {c.uploading ? (
                <Loader2 size={12} className="spin" aria-label="Uploading" />
              ) : isImage(c.name) ? (
                <ImageIcon size={12} aria-hidden />
              ) : (
                <FileText size={12} aria-hidden />
              )}
              <span className="attach-name">{c.name}</span>
              {c.size !== undefined && <span className="attach-size">{humanSize(c.size)}</span>}
              <button type="button" className="attach-remove" aria-label={`Remove ${c.name}`} onClick={() => att.remove(c.id)}>
                <X size={12} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      {att.note && (
        <p className="attach-note" role="alert">
          {att.note}
        </p>
      )}
    </div>
  );
}

/** A sent message's attachments, in the transcript. */
export function MessageAttachments({ paths }: { paths?: string[] }) {
  if (!paths || paths.length === 0) return null;
  return (
    <ul className="attach-chips sent" aria-label="Attached files">
      {paths.map((p) => (
        <li key={p} className="attach-chip" title={p}>
          {isImage(p) ? <ImageIcon size={12} aria-hidden /> : <FileText size={12} aria-hidden />}
          <span className="attach-name">{baseName(p)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The transport's ways in: a native chooser in the desktop window (opening
 * in folder, the session's project, when given), uploads over HTTP.
 */
export function attachSourceOf(t: Transport, platform = typeof navigator === "undefined" ? "" : navigator.platform, folder?: string): AttachSource {
  const d = t.desktop;
  return {
    upload: t.upload ? (f, n) => t.upload!(f, n) : undefined,
    pasteImage: t.pasteImage ? (n) => t.pasteImage!(n) : undefined,
    pickFiles: d?.pickFiles ? () => d.pickFiles!("Attach files", folder) : undefined,
    // A drop's paths are this computer's, not a host's (transport/host.ts).
    nativeDrops: t.kind === "wails" && /linux/i.test(platform),
    // A host's agent cannot read this computer's paths: a native drop's bytes go there.
    uploadPath: t.host && t.uploadFile ? (p) => t.uploadFile!(p) : undefined,
  };
}
