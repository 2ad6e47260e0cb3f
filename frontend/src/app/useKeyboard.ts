import { useEffect, type RefObject } from "react";
import type { SessionHandle } from "../components/session/SessionView";
import type { Layout } from "./useLayout";
import type { DialogName } from "./useNavigation";

function isTyping(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

/** Keyboard first: every action of the shell has a key (the sheet on ? lists them). */
export function useKeyboard(k: {
  layout: Layout;
  dialogOpen: boolean;
  composer: RefObject<SessionHandle | null>;
  setDialog(d: DialogName): void;
  /** Ctrl+N opens a new session in this project. */
  newSessionIn?: string;
  newSession(projectId?: string): void;
}) {
  const { dialogOpen, composer, setDialog, newSession, newSessionIn } = k;
  const { narrow, overlay, closeOverlay, toggleSidebar, setInspector } = k.layout;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === "Escape" && narrow && overlay && !dialogOpen) {
        closeOverlay();
        return;
      }
      if (!mod && e.key === "?" && !isTyping(e.target)) {
        e.preventDefault();
        setDialog("shortcuts");
        return;
      }
      // F2 renames the open session in its header (the sidebar handles its own rows).
      if (e.key === "F2" && !mod && !isTyping(e.target) && !dialogOpen) {
        e.preventDefault();
        composer.current?.rename?.();
        return;
      }
      if (!mod || e.altKey) return;
      const key = e.key.toLowerCase();
      const act: Record<string, () => void> = {
        k: () => setDialog("quick"),
        n: () => newSession(newSessionIn),
        b: () => toggleSidebar(),
        i: () => setInspector((v) => !v),
        ",": () => setDialog("settings"),
        ".": () => composer.current?.stop?.(),
      };
      const f = act[key];
      if (f) {
        e.preventDefault();
        f();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [newSession, newSessionIn, toggleSidebar, setInspector, dialogOpen, narrow, overlay, closeOverlay, setDialog, composer]);
}
