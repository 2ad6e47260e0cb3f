import { useEffect, useState } from "react";

export type ThemePref = "system" | "light" | "dark";
const KEY = "hermesdesk.theme";

export function readTheme(): ThemePref {
  try {
    const v = localStorage.getItem(KEY);
    if (v === "light" || v === "dark" || v === "system") return v;
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

export function useTheme(): [ThemePref, (t: ThemePref) => void] {
  const [theme, setTheme] = useState<ThemePref>(readTheme);
  useEffect(() => {
    applyTheme(theme);
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // not persisted; still applied
    }
  }, [theme]);
  return [theme, setTheme];
}
