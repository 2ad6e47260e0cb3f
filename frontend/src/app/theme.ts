import { useEffect, useState } from "react";

export type ThemePref = "system" | "light" | "dark";
const KEY = "hermesdesk.theme";

/**
 * The saved preference; without one, the theme the desktop window served the
 * page with (data-theme on <html>, from its window-state file), else "system".
 */
export function readTheme(root: HTMLElement = document.documentElement): ThemePref {
  try {
    const v = localStorage.getItem(KEY);
    if (v === "light" || v === "dark" || v === "system") return v;
  } catch {
    // storage disabled: fall through
  }
  const served = root.getAttribute("data-theme");
  if (served === "light" || served === "dark") return served;
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
