// The one interface the UI talks to. Two implementations: Wails (bound
// Desktop.Request + doorbell events) and HTTP (fetch + SSE), chosen at runtime.
// A transport fetches pages and streams; merging and paging are RunStore's.
import type { ApiClient } from "./api";
import type { DesktopInfo, ExportFile, RunEvent, Upload, WatchMessage } from "./types";

export interface WatchHandlers {
  /** Events in seq order as they arrive; may repeat ones already seen. */
  onEvents(events: RunEvent[]): void;
  /** A recoverable problem (the transport keeps retrying) or a final one. */
  onError?(err: unknown, final: boolean): void;
}

export interface BusHandlers {
  /**
   * Watch bus messages in order: a snapshot first (and again after every
   * reconnect: it replaces what was known), then changes.
   */
  onMessage(m: WatchMessage): void;
  /** The bus is unreachable for now (the transport keeps reconnecting). */
  onError?(err: unknown): void;
}

/** Desktop-only capabilities; absent in the browser. */
export interface DesktopBridge {
  info(): Promise<DesktopInfo>;
  getAutostart(): Promise<boolean>;
  setAutostart(enabled: boolean): Promise<boolean>;
  /** Resolves "" when the person cancels. */
  pickFolder(title: string): Promise<string>;
  /**
   * Native multi-file chooser, opening in folder when given (and the window
   * can); resolves [] when cancelled. Absent in an older window.
   */
  pickFiles?(title: string, folder?: string): Promise<string[]>;
  /**
   * Saves an export where the person says (the native Save dialog, opening
   * in Downloads with the file's name): a web view cannot download. Resolves
   * where it went, path "" when cancelled. Absent in an older window.
   */
  saveExport?(f: ExportFile): Promise<{ path: string; shown: string }>;
  /** Opens the folder holding path in the file manager. Absent in an older window. */
  showFolder?(path: string): Promise<void>;
  /**
   * Tells the window the app theme, so its next start paints that theme
   * from the first frame (docs/ARCHITECTURE.md §Window state). A no-op in
   * an older window.
   */
  setTheme?(theme: "system" | "light" | "dark"): Promise<void>;
  /**
   * Quits the app. With active runs the person chose, as the tray asks,
   * to keep them going in the background or stop them first
   * (docs/ARCHITECTURE.md §Quit with active runs).
   */
  quit(runs?: "keep" | "stop"): void;
  onAutostartChanged(cb: (enabled: boolean) => void): () => void;
  /** A second launch reshowed the window; args are its command line (flags dropped by Go). */
  onSecondInstance(cb: (launch: { args: string[]; cwd: string }) => void): () => void;
  /** The tray or a notification asks to show a session ("" = a new session). */
  onOpenSession?(cb: (sessionId: string) => void): () => void;
}

export interface Transport {
  readonly kind: "wails" | "http";
  readonly api: ApiClient;
  /** The host whose core this transport reaches; absent for this computer (transport/host.ts). */
  readonly host?: string;
  /** How the person calls that host (hosts/remote.ts hostLabel), for the words shown. */
  readonly hostName?: string;
  /** The same transport bound to a host's core through /api/hosts/{host}/… (transport/host.ts forHost). */
  forHost?(host: string, name?: string): Transport;
  /**
   * Streams a run's events from the cursor `after` until its terminal
   * event, reconnecting on its own (HTTP: SSE). Returns a function that
   * stops watching. Absent where the transport only rings (ringRun).
   */
  watchRun?(runId: string, after: number, h: WatchHandlers): () => void;
  /**
   * Rings when the journal holds a run's events through seq (the desktop
   * window's doorbells; Infinity when a doorbell names no seq). The
   * transport reads nothing itself: store/runStore.ts, the one merger and
   * pager, reads the pages after its cursor (docs/ARCHITECTURE.md §Life of
   * one event). Returns a function that stops ringing.
   */
  ringRun?(runId: string, ring: (seq: number) => void): () => void;
  /**
   * Follows the watch bus (GET /api/watch): what changed anywhere — runs
   * started by any client, status, pending prompts, sessions, agents.
   * Reconnects on its own. Returns a function that stops watching.
   */
  watchBus?(h: BusHandlers): () => void;
  /**
   * Sends a file that has no path here (a browser's, a pasted image) to
   * POST /api/uploads; the path it returns is attached to a message.
   */
  upload?(file: Blob, name: string): Promise<Upload>;
  /**
   * A file of this computer, by its path (a drop on the Linux desktop
   * window), uploaded to this transport's host, whose agent cannot read
   * this computer's paths (app/upload.go UploadFile). Host transports only.
   */
  uploadFile?(path: string): Promise<Upload>;
  /**
   * The desktop window reads the clipboard's image itself when the page's
   * paste carried none (WebKitGTK shows the page only text) and uploads it
   * as name; null when the clipboard holds no image.
   */
  pasteImage?(name: string): Promise<Upload | null>;
  readonly desktop?: DesktopBridge;
}
