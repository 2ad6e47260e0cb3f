import { isSafeUrl } from "../markdown/render";
import { wailsRuntime } from "../transport/wailsRuntime";
import { withOpen } from "./guard";

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
