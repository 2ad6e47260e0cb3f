// A modal's focus (Dialog, the Review view): moved in when it opens, kept
// in by Tab and Shift+Tab, given back to what had it when it closes — so a
// keyboard never walks the page hidden behind the modal.
import { useEffect, type RefObject } from "react";

const FOCUSABLE = "button, input, select, textarea, a[href], [tabindex='0']";

/**
 * start: "first" focuses the first field ([autofocus] first), as a form
 * dialog wants; "box" focuses the modal itself (it needs tabIndex -1),
 * for one whose content comes later.
 */
export function useFocusTrap(box: RefObject<HTMLElement | null>, start: "first" | "box" = "first"): void {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = start === "first" ? box.current?.querySelector<HTMLElement>("[autofocus], input, button:not(.dialog-close), select, textarea, [tabindex='0']") : null;
    (first ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Tab" || !box.current) return;
      const f = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute("disabled"));
      if (f.length === 0) return;
      // Outside (what had it went away, an editor closed say): back in.
      if (!box.current.contains(document.activeElement)) {
        e.preventDefault();
        (e.shiftKey ? f[f.length - 1]! : f[0]!).focus();
        return;
      }
      // From the modal itself the browser's own Tab goes in (and shows the ring).
      const i = f.indexOf(document.activeElement as HTMLElement);
      if (e.shiftKey && i <= 0) {
        e.preventDefault();
        f[f.length - 1]!.focus();
      } else if (!e.shiftKey && i === f.length - 1) {
        e.preventDefault();
        f[0]!.focus();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      before?.focus?.();
    };
    // Once per opening: a re-render must not move the focus (issue 23).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
