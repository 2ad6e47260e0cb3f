// Copy to the clipboard with a toast saying it worked (docs/ARCHITECTURE.md
// §Session view). Buttons are real buttons: reachable with Tab, pressed with
// Enter or Space.
import { Check, Copy } from "lucide-react";
import { useEffect, useState, useSyncExternalStore } from "react";

type Toast = { id: number; text: string };
let toasts: Toast[] = [];
let nextId = 1;
const subs = new Set<() => void>();
const emit = () => subs.forEach((f) => f());

/** Shows a short message at the bottom of the window for a moment. */
export function toast(text: string, ms = 2200): void {
  const t = { id: nextId++, text };
  toasts = [...toasts.slice(-2), t];
  emit();
  setTimeout(() => {
    toasts = toasts.filter((x) => x !== t);
    emit();
  }, ms);
}

export function Toaster() {
  const list = useSyncExternalStore(
    (f) => (subs.add(f), () => subs.delete(f)),
    () => toasts,
  );
  return (
    <div className="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className="toast">{t.text}</div>
      ))}
    </div>
  );
}

interface ClipboardRuntime {
  runtime?: { ClipboardSetText?(text: string): Promise<boolean> };
}

/** Writes text to the clipboard: the browser's API, else the desktop's, else a hidden field. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (an insecure origin, no focus): try the others.
  }
  const rt = (window as unknown as ClipboardRuntime).runtime;
  if (rt?.ClipboardSetText) {
    try {
      if (await rt.ClipboardSetText(text)) return true;
    } catch {
      // fall through
    }
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}

/** Copies and says so. what names the thing ("Code", "Answer", "Command"). */
export async function copyText(text: string, what: string): Promise<boolean> {
  const ok = await writeClipboard(text);
  toast(ok ? `${what} copied` : `Could not copy the ${what.toLowerCase()}: select it and press Ctrl+C`);
  return ok;
}

export function CopyButton({ text, what, className }: { text: string | (() => string); what: string; className?: string }) {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), 1500);
    return () => clearTimeout(t);
  }, [done]);
  return (
    <button
      type="button"
      className={`icon-btn copy-btn ${className ?? ""}`}
      aria-label={`Copy ${what.toLowerCase()}`}
      title={`Copy ${what.toLowerCase()}`}
      onClick={() => void copyText(typeof text === "function" ? text() : text, what).then((ok) => setDone(ok))}
    >
      {done ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
    </button>
  );
}
