// Picks the transport at runtime: Wails when the bound Desktop object
// exists, HTTP against the same origin otherwise.
import { HttpTransport, takeToken } from "./http";
import type { Transport } from "./transport";
import { WailsTransport } from "./wails";
import { wailsDesktop, wailsRuntime } from "./wailsRuntime";

/** True inside the Wails webview, even if a binding is missing. */
export function inWails(win: unknown = globalThis.window): boolean {
  if (wailsDesktop(win) || wailsRuntime(win)?.EventsOn) return true;
  const loc = (win as Window | undefined)?.location;
  return loc?.protocol === "wails:" || loc?.hostname === "wails.localhost";
}

export function createTransport(win: unknown = globalThis.window): Transport {
  if (inWails(win)) return new WailsTransport({ win });
  return new HttpTransport({ token: takeToken() });
}

export * from "./api";
export * from "./transport";
export * from "./types";
