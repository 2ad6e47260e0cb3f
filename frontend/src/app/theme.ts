import { useEffect, useState } from "react";

import type { ThemePref } from "../store/theme";

export type { ThemePref };
const KEY = "hermesdesk.theme";

const isPref = (v: unknown): v is ThemePref => v === "light" || v === "dark" || v === "system";

/**
 * The theme already on <html> before the app ran: the one the desktop
 * window served the page with (from its per-data-dir window-state file,
 * which painted the first frame), else the one public/theme-boot.js set
 * from this browser's saved preference before the first paint; else the
 * saved preference; else "system". Both read the same order, so the app
 * never repaints the page in another theme.
 */
export function readTheme(root: HTMLElement = document.documentElement): ThemePref {
  const served = root.getAttribute("data-theme");
  if (isPref(served)) return served;
  try {
    const v = localStorage.getItem(KEY);
    if (isPref(v)) return v;
  } catch {
    // storage disabled: follow the OS
  }
  return "system";
}

/** Applies the preference as data-theme on <html>; "system" follows the OS via CSS. */
export function applyTheme(t: ThemePref, root: HTMLElement = document.documentElement): void {
  if (t === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", t);
}

/**
 * The theme preference, applied to the page and saved; `remember` also tells
 * the desktop window (so its next start paints it from the first frame).
 */
export function useTheme(remember?: (t: ThemePref) => Promise<void> | void): [ThemePref, (t: ThemePref) => void] {
  const [theme, setTheme] = useState<ThemePref>(() => readTheme());
  useEffect(() => {
    applyTheme(theme);
    void Promise.resolve()
      .then(() => remember?.(theme))
      .catch((err: unknown) => console.warn("the window did not save the theme", err));
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // not persisted; still applied
    }
  }, [theme, remember]);
  return [theme, setTheme];
}
