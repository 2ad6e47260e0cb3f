import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { useFocusTrap } from "./useFocusTrap";

/** A modal dialog: Esc and the backdrop close it; focus moves in and back. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  // The latest onClose, read when Esc is pressed: a parent's new function
  // on each render must not re-run an effect — the focus moved to the
  // first field again and Settings jumped back to its top whenever the app
  // re-rendered, such as after saving an agent (issue 23, polish).
  const close = useRef(onClose);
  close.current = onClose;
  useFocusTrap(box);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close.current();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className={`dialog${wide ? " wide" : ""}`} role="dialog" aria-modal="true" aria-label={title} tabIndex={-1}>
        <header className="dialog-head">
          <h2>{title}</h2>
          <button type="button" className="icon-btn dialog-close" onClick={onClose} aria-label="Close">
            <X size={16} />
          </button>
        </header>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
