// A tiny typed view of what Wails v2 injects (window.runtime, window.go),
// so nothing depends on generated wailsjs bindings. Every access tolerates
// absence: the UI must run (and say so) when a binding is missing.
import type { DesktopInfo } from "./types";

export interface WailsDesktop {
  Request?(method: string, path: string, body: string): Promise<{ status: number; body: string }>;
  Info?(): Promise<DesktopInfo>;
  GetAutostart?(): Promise<boolean>;
  SetAutostart?(enabled: boolean): Promise<boolean>;
  PickFolder?(title: string): Promise<string>;
  SetTheme?(theme: string): Promise<void>;
  PickFiles?(title: string): Promise<string[] | null>;
  PickFilesIn?(title: string, folder: string): Promise<string[] | null>;
  SaveExport?(filename: string, content: string): Promise<{ path: string; shown: string }>;
  ShowFolder?(path: string): Promise<void>;
  /** host "": this computer; a host's id: stored on that host (app/upload.go). */
  Upload?(name: string, dataBase64: string, host: string): Promise<{ status: number; body: string }>;
  /** A file of this computer, by path, stored on host (a drop in a host's session). */
  UploadFile?(path: string, host: string): Promise<{ status: number; body: string }>;
  PasteImage?(name: string, host: string): Promise<{ status: number; body: string }>;
  Quit?(runs: string): void | Promise<void>;
}

export interface WailsRuntime {
  EventsOn?(name: string, cb: (...data: unknown[]) => void): (() => void) | void;
  EventsOff?(name: string, ...more: string[]): void;
  BrowserOpenURL?(url: string): void;
}

interface WailsWindow {
  go?: { app?: { Desktop?: WailsDesktop } };
  runtime?: WailsRuntime;
}

export function wailsDesktop(w: unknown = globalThis.window): WailsDesktop | undefined {
  return (w as WailsWindow | undefined)?.go?.app?.Desktop;
}

export function wailsRuntime(w: unknown = globalThis.window): WailsRuntime | undefined {
  return (w as WailsWindow | undefined)?.runtime;
}

/**
 * Subscribes to a Wails runtime event. Wails v2's EventsOn returns its own
 * canceller; use it so other listeners of the same name survive.
 */
export function onWailsEvent(name: string, cb: (...data: unknown[]) => void, w: unknown = globalThis.window): () => void {
  const rt = wailsRuntime(w);
  if (!rt?.EventsOn) return () => {};
  const off = rt.EventsOn(name, cb);
  return typeof off === "function" ? off : () => rt.EventsOff?.(name);
}
