import { isSafeUrl } from "../../markdown/render";
import { wailsRuntime } from "../../transport/wailsRuntime";

/** Opens a URL outside the webview: system browser in Wails, a new tab otherwise. */
export function openExternal(url: string): void {
  if (!isSafeUrl(url)) return;
  const rt = wailsRuntime();
  if (rt?.BrowserOpenURL) {
    rt.BrowserOpenURL(url);
    return;
  }
  withOpen(() => window.open(url, "_blank", "noopener,noreferrer"));
}

// The window's guard (app/guard.ts) refuses window.open unless it comes
// from openExternal: this counter is what it asks.
let allowOpen = 0;

/** Runs f with window.open allowed: only openExternal's own call passes. */
export function withOpen<T>(f: () => T): T {
  allowOpen++;
  try {
    return f();
  } finally {
    allowOpen--;
  }
}

/** Whether window.open is being called from inside withOpen. */
export function openAllowed(): boolean {
  return allowOpen > 0;
}
