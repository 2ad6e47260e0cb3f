import { ArrowUp, ListPlus } from "lucide-react";
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { useSlashMenu, type ProductCommand, type SlashCommand } from "./SlashMenu";
import { AttachButton, AttachmentChips, useAttachments, type AttachSource } from "./Attachments";
import { nothingFocused } from "../common/takeFocus";

const NONE: never[] = [];
const NO_ATTACH: AttachSource = {};

export interface ComposerHandle {
  focus(): void;
  /** Inserts text at the caret (a dropped file's path, a command). */
  insert(text: string): void;
  /** Attaches files by their paths (files dropped on the desktop window). */
  attach(paths: string[]): void;
}

/**
 * Enter sends, Shift+Enter adds a line. While a run is active the message
 * becomes a queued follow-up that starts when the run ends.
 */
export const Composer = forwardRef<ComposerHandle, {
  /** attachments: the paths of the files attached (uploaded ones included). */
  onSend(text: string, attachments: string[]): Promise<boolean>;
  queueing: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** The agent's own slash commands (commands.updated). */
  commands?: SlashCommand[];
  /** Hermes Desk's slash commands. */
  productCommands?: ProductCommand[];
  /** What Enter does, when it is not plain send or queue (answering a question). */
  hint?: string;
  /** Where attached files come from; without it there is no paperclip. */
  attach?: AttachSource;
  /**
   * The desktop window: when the window gets the keyboard (shown from the
   * tray or a notification, a new window's first page) and nothing in the
   * page has it, the message box takes it, so the first words typed land.
   */
  takeKeyboard?: boolean;
}>(function Composer({ onSend, queueing, disabled, placeholder, commands, productCommands, hint, attach, takeKeyboard }, ref) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const ta = useRef<HTMLTextAreaElement>(null);
  const att = useAttachments(attach ?? NO_ATTACH);
  const addPaths = att.addPaths;
  useImperativeHandle(ref, () => ({
    attach: addPaths,
    focus: () => ta.current?.focus(),
    insert: (s: string) => {
      const el = ta.current;
      const at = el ? el.selectionStart : undefined;
      setText((cur) => (at === undefined ? cur + s : cur.slice(0, at) + s + cur.slice(el!.selectionEnd)));
      el?.focus();
    },
  }), [addPaths]);
  useEffect(() => {
    if (!takeKeyboard) return;
    const take = () => {
      if (document.hasFocus() && nothingFocused(document)) ta.current?.focus();
    };
    take();
    window.addEventListener("focus", take);
    return () => window.removeEventListener("focus", take);
  }, [takeKeyboard]);
  // After the paperclip's chooser: back to the message, caret at the end.
  const focusEnd = () => {
    const el = ta.current;
    if (!el || el.disabled) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  };
  const slash = useSlashMenu({ text, setText, agent: commands ?? NONE, product: productCommands ?? NONE });

  // Grow with the text up to a cap, then scroll inside; again when the
  // width changes (sidebar hidden, window resized), or the height computed
  // for a narrow box would stay.
  const fit = () => {
    const el = ta.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  };
  useLayoutEffect(fit, [text]);
  useEffect(() => {
    const el = ta.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let w = el.clientWidth;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth !== w) {
        w = el.clientWidth;
        fit();
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const send = async () => {
    const t = text.trim();
    if ((!t && att.paths.length === 0) || busy || disabled || att.uploading) return;
    setBusy(true);
    const ok = await onSend(t, att.paths);
    setBusy(false);
    if (ok) {
      setText("");
      att.clear();
    }
    ta.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(e)) return;
    // Esc leaves the composer, so the page's keys (digits on a card, ?) work.
    if (e.key === "Escape") {
      e.preventDefault();
      ta.current?.blur();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  return (
    <div className="composer">
      <div className={`composer-box${disabled ? " disabled" : ""}`} {...att.dropProps}>
        {slash.menu}
        <AttachmentChips att={att} />
        <textarea
          ref={ta}
          rows={1}
          aria-label="Message"
          placeholder={placeholder ?? (queueing ? "Queue a follow-up…" : "Message the agent…")}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
          onPaste={att.onPaste}
          aria-controls={slash.open ? "slash-menu" : undefined}
          aria-activedescendant={slash.activeId}
        />
        <AttachButton att={att} src={attach ?? NO_ATTACH} disabled={disabled} onDone={focusEnd} />
        <button
          type="button"
          className="btn btn-primary send-btn"
          onClick={() => void send()}
          disabled={(!text.trim() && att.paths.length === 0) || busy || disabled || att.uploading}
          aria-label={queueing ? "Queue follow-up" : "Send"}
          title={queueing ? "Queue follow-up (Enter)" : "Send (Enter)"}
        >
          {queueing ? <ListPlus size={16} aria-hidden /> : <ArrowUp size={16} aria-hidden />}
        </button>
      </div>
      <p className="composer-hint">
        <kbd>Enter</kbd> {hint ?? (queueing ? "queues it to run next" : "to send")} · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Esc</kbd> leaves
      </p>
    </div>
  );
});
