import { useCallback, useEffect, useState } from "react";
import { usePersisted } from "./usePersisted";

const NARROW = "(max-width: 860px)";

/** True below the width where the sidebar stops fitting beside the transcript. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== "undefined" && !!window.matchMedia?.(NARROW).matches);
  useEffect(() => {
    const mq = window.matchMedia?.(NARROW);
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    mq.addEventListener?.("change", on);
    return () => mq.removeEventListener?.("change", on);
  }, []);
  return narrow;
}

/**
 * The shell's layout: the sidebar's width and whether it shows, and the
 * inspector. Below the breakpoint the sidebar is an overlay over the page,
 * closed until asked for (a phone on the served UI, a narrow window).
 */
export function useLayout() {
  const [width, setWidth] = usePersisted<number>("hermesdesk.sidebarWidth", 264);
  const [collapsed, setCollapsed] = usePersisted<boolean>("hermesdesk.sidebarCollapsed", false);
  const [inspector, setInspector] = usePersisted<boolean>("hermesdesk.inspector", false);
  const narrow = useNarrow();
  const [overlay, setOverlay] = useState(false);
  useEffect(() => setOverlay(false), [narrow]);
  const closeOverlay = useCallback(() => setOverlay(false), []);
  const toggleSidebar = useCallback(() => (narrow ? setOverlay((o) => !o) : setCollapsed((c) => !c)), [narrow, setCollapsed]);
  return {
    width,
    setWidth: (w: number) => setWidth(Math.max(200, Math.min(440, Math.round(w)))),
    inspector,
    setInspector,
    narrow,
    overlay,
    sidebarShown: narrow ? overlay : !collapsed,
    toggleSidebar,
    showSidebar: () => (narrow ? setOverlay(true) : setCollapsed(false)),
    collapseSidebar: () => (narrow ? setOverlay(false) : setCollapsed(true)),
    closeOverlay,
  };
}

export type Layout = ReturnType<typeof useLayout>;
