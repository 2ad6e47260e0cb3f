// Rename, archive and delete a session: the inline title editor (header and
// sidebar), the actions menu (the "…" button or a right click) and the
// delete confirmation, which explains the API's 409 while a run is active.
import { Archive, ArchiveRestore, Pencil, Square, Trash2 } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { ApiError } from "../../transport/api";
import type { Session } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { revealInvisible } from "../../text/invisible";
import { causeText } from "../common/bannerError";

/** Titles stay readable and, at ≤ 3 UTF-8 bytes per UTF-16 unit, under the service's 512-byte limit. */
export const MAX_TITLE = 120;

/**
 * A title being edited in place: Enter or leaving the field saves, Esc
 * cancels. A refused save keeps the editor open with the reason.
 */
export function InlineTitle({
  value,
  label,
  className,
  onSave,
  onDone,
}: {
  value: string;
  label: string;
  className?: string;
  /** Resolves an error message when the title was not saved. */
  onSave(title: string): Promise<string | undefined>;
  onDone(): void;
}) {
  const [text, setText] = useState(value);
  const [err, setErr] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Set once the edit is over, so the blur that follows Esc or Enter is no second save.
  const over = useRef(false);

  useLayoutEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const commit = async () => {
    if (over.current || busy) return;
    const t = text.trim();
    if (t === value.trim()) {
      over.current = true;
      onDone();
      return;
    }
    if (t === "") {
      setErr("A title cannot be empty.");
      return;
    }
    setBusy(true);
    const e = await onSave(t);
    setBusy(false);
    if (e) {
      setErr(e);
      input.current?.focus();
      return;
    }
    over.current = true;
    onDone();
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation(); // typing here must not trigger list or app shortcuts
    if (e.key === "Enter") {
      e.preventDefault();
      void commit();
    } else if (e.key === "Escape") {
      e.preventDefault();
      over.current = true;
      onDone();
    }
  };
  return (
    <span className={`inline-title ${className ?? ""}`}>
      <input
        ref={input}
        className="input inline-title-input"
        value={text}
        maxLength={MAX_TITLE}
        aria-label={label}
        aria-invalid={err ? true : undefined}
        aria-busy={busy}
        onChange={(e) => {
          setText(e.target.value);
          setErr(undefined);
        }}
        onKeyDown={onKey}
        onBlur={() => void commit()}
      />
      {err && (
        <span className="inline-title-err" role="alert">
          {err}
        </span>
      )}
    </span>
  );
}

export interface MenuAnchor {
  x: number;
  y: number;
  /** Where focus goes back when the menu closes without an action. */
  returnTo?: HTMLElement | null;
}

/** The actions of one session, as a keyboard-navigable menu at a point. */
export function SessionMenu({
  session,
  at,
  onRename,
  onArchive,
  onDelete,
  onClose,
}: {
  session: Session;
  at: MenuAnchor;
  onRename(): void;
  onArchive(archived: boolean): void;
  onDelete(): void;
  onClose(): void;
}) {
  const title = revealInvisible(session.title || "Untitled session");
  const run = (f: () => void) => () => {
    onClose();
    f();
  };
  return (
    <ActionMenu label={`Actions for ${title}`} at={at} onClose={onClose}>
      <button type="button" role="menuitem" tabIndex={-1} onClick={run(onRename)}>
        <Pencil size={14} aria-hidden /> Rename <kbd>F2</kbd>
      </button>
      {session.archived ? (
        <button type="button" role="menuitem" tabIndex={-1} onClick={run(() => onArchive(false))}>
          <ArchiveRestore size={14} aria-hidden /> Unarchive
        </button>
      ) : (
        <button type="button" role="menuitem" tabIndex={-1} onClick={run(() => onArchive(true))}>
          <Archive size={14} aria-hidden /> Archive
        </button>
      )}
      <button type="button" role="menuitem" tabIndex={-1} className="danger" onClick={run(onDelete)}>
        <Trash2 size={14} aria-hidden /> Delete… <kbd>Del</kbd>
      </button>
    </ActionMenu>
  );
}

/** A keyboard-navigable menu at a point: kept on screen, first item focused, closed by Esc, Tab or a click away. */
export function ActionMenu({ label, at, onClose, children }: { label: string; at: MenuAnchor; onClose(): void; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: at.x, top: at.y });

  // Keep the menu on screen, then focus its first item.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({
      left: Math.max(4, Math.min(at.x, window.innerWidth - r.width - 4)),
      top: Math.max(4, Math.min(at.y, window.innerHeight - r.height - 4)),
    });
    el.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [at.x, at.y]);

  useEffect(() => {
    const away = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) onClose();
    };
    window.addEventListener("mousedown", away, true);
    window.addEventListener("blur", onClose);
    return () => {
      window.removeEventListener("mousedown", away, true);
      window.removeEventListener("blur", onClose);
    };
  }, [onClose]);

  const close = () => {
    onClose();
    at.returnTo?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    e.stopPropagation();
    const items = [...(box.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    const go = (j: number) => items[(j + items.length) % items.length]?.focus();
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        go(i + 1);
        break;
      case "ArrowUp":
        e.preventDefault();
        go(i - 1);
        break;
      case "Home":
        e.preventDefault();
        go(0);
        break;
      case "End":
        e.preventDefault();
        go(-1);
        break;
      case "Escape":
      case "Tab":
        e.preventDefault();
        close();
        break;
    }
  };
  return (
    <div ref={box} className="menu" role="menu" aria-label={label} style={{ left: pos.left, top: pos.top }} onKeyDown={onKey}>
      {children}
    </div>
  );
}

/** What a refused delete means to a person. */
export function deleteError(e: unknown): { text: string; busy: boolean } {
  if (e instanceof ApiError && e.status === 409) {
    const why = (e.message || "the session has a running agent; stop it first").replace(/\.$/, "");
    return { text: `Cannot delete it yet: ${why}.`, busy: true };
  }
  if (e instanceof ApiError && e.status === 404) return { text: "This session no longer exists.", busy: false };
  return { text: `Could not delete the session: ${causeText(e)}`, busy: false };
}

/** Asks before deleting; explains a refusal while an agent is running and offers to stop it. */
export function DeleteSessionDialog({
  session,
  onDelete,
  onStop,
  onClose,
}: {
  session: Session;
  /** Rejects with the API's error (409 while a run is active). */
  onDelete(): Promise<void>;
  /** Stops the session's active runs; present when there are some. */
  onStop?: () => Promise<string | undefined>;
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<{ text: string; busy: boolean }>();
  const [note, setNote] = useState<string>();
  const title = revealInvisible(session.title || "Untitled session");

  const del = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      await onDelete();
      onClose();
    } catch (e) {
      setErr(deleteError(e));
      setBusy(false);
    }
  };
  const stop = async () => {
    if (!onStop) return;
    setBusy(true);
    const n = await onStop();
    setBusy(false);
    setNote(n ?? "Asked the agent to stop. Delete again once it has stopped.");
  };
  return (
    <Dialog title="Delete session" onClose={onClose}>
      <p>
        Delete <strong>{title}</strong>? Its messages and run history are removed from this computer. This cannot be undone.
      </p>
      {!err && !session.archived && <p className="quiet">To hide it but keep its history, archive it instead.</p>}
      {err && (
        <p className="control-note tone-fail delete-err" role="alert">
          {err.text}
        </p>
      )}
      {note && <p className="control-note" role="status">{note}</p>}
      <div className="dialog-foot gap">
        <button type="button" className="btn btn-secondary" onClick={onClose}>Cancel</button>
        {err?.busy && onStop && (
          <button type="button" className="btn btn-secondary" onClick={() => void stop()} disabled={busy}>
            <Square size={14} aria-hidden /> Stop the run
          </button>
        )}
        <button type="button" className="btn btn-danger" onClick={() => void del()} disabled={busy}>
          <Trash2 size={14} aria-hidden /> {err?.busy ? "Try again" : "Delete"}
        </button>
      </div>
    </Dialog>
  );
}
