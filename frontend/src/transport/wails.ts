// The Wails transport: every route goes through the bound
// Desktop.Request(method, path, body), served in-process by the same service
// as HTTP. Live events arrive as tiny `run:doorbell` {run_id, seq} runtime
// events (large Wails event payloads leak memory in WebKit, docs/ARCHITECTURE.md §The watch bus);
// on a doorbell the watcher pulls the next pages through Request.
import { ApiClient, ApiError, BackendUnavailableError, parseJSON, type RawResponse } from "./api";
import { hostDesktop, hostPath } from "./host";
import type { BusHandlers, DesktopBridge, Transport } from "./transport";
import type { DesktopInfo, Upload, WatchMessage } from "./types";
import { onWailsEvent, wailsDesktop, wailsRuntime, type WailsDesktop } from "./wailsRuntime";

export const DOORBELL = "run:doorbell";
/** The window's copy of the watch bus: one small WatchMessage per event. */
export const WATCH = "watch";

interface Doorbell {
  run_id: string;
  seq: number;
}

function doorbells(data: unknown[]): Doorbell[] {
  const out: Doorbell[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      const d = v as Record<string, unknown>;
      if (typeof d.run_id === "string") out.push({ run_id: d.run_id, seq: typeof d.seq === "number" ? d.seq : Infinity });
    }
  };
  data.forEach(visit);
  return out;
}

export interface WailsOptions {
  win?: unknown;
}

export class WailsTransport implements Transport {
  readonly kind = "wails" as const;
  readonly api: ApiClient;
  readonly desktop: DesktopBridge;
  private readonly rings = new Map<string, Set<(seq: number) => void>>();
  private offDoorbell: (() => void) | null = null;
  private readonly win: unknown;

  constructor(opts: WailsOptions = {}) {
    this.win = opts.win ?? globalThis.window;
    this.api = new ApiClient((m, p, b) => this.request(m, p, b));
    this.desktop = makeBridge(() => wailsDesktop(this.win), this.win);
  }

  /**
   * This window bound to a host's core (transport/host.ts): requests through
   * /api/hosts/{host}/…, doorbells from this core's bus (it rings the
   * host's runs too). A dropped, pasted or clipboard file's bytes go to
   * the host (Go's Upload with the host: POST /api/hosts/{host}/uploads).
   */
  forHost(host: string, name?: string): Transport {
    return {
      kind: this.kind,
      host,
      hostName: name,
      upload: (file, n) => this.uploadTo(host, file, n),
      pasteImage: (n) => this.pasteImageFor(host, n),
      uploadFile: (path) => this.uploadFileTo(host, path),
      api: new ApiClient((m, p, b) => this.request(m, hostPath(host, p), b)),
      ringRun: (runId, ring) => this.ringRun(runId, ring),
      desktop: hostDesktop(this.desktop),
      forHost: (h, n) => this.forHost(h, n),
    };
  }

  private async request(method: string, path: string, body?: string): Promise<RawResponse> {
    const d = wailsDesktop(this.win);
    if (typeof d?.Request !== "function") throw new BackendUnavailableError();
    try {
      const r = await d.Request(method, path, body ?? "");
      return { status: r.status, body: r.body ?? "" };
    } catch (err) {
      // A rejected binding call is a Go-side error, not an HTTP status.
      console.warn("Desktop.Request failed", method, path, err);
      throw new ApiError(500, "binding_error", "The app could not complete the request");
    }
  }

  /** A dropped or pasted file (the web view gives no path) goes to POST /api/uploads via Go. */
  upload(file: Blob, name: string): Promise<Upload> {
    return this.uploadTo("", file, name);
  }

  /** The one upload path: host "" stores here, a host's id on that host (app/upload.go). */
  private async uploadTo(host: string, file: Blob, name: string): Promise<Upload> {
    const d = wailsDesktop(this.win);
    if (typeof d?.Upload !== "function") throw new BackendUnavailableError("This window cannot upload files; attach them with the paperclip");
    const r = await d.Upload(name, await toBase64(file), host);
    return parseJSON<Upload>({ status: r.status, body: r.body ?? "" });
  }

  private async uploadFileTo(host: string, path: string): Promise<Upload> {
    const d = wailsDesktop(this.win);
    if (typeof d?.UploadFile !== "function") throw new BackendUnavailableError("This window cannot send dropped files to a host; attach them with the paperclip");
    const r = await d.UploadFile(path, host);
    return parseJSON<Upload>({ status: r.status, body: r.body ?? "" });
  }

  /** The clipboard's image, read by Go (app/upload.go PasteImage): null when there is none. */
  pasteImage(name: string): Promise<Upload | null> {
    return this.pasteImageFor("", name);
  }

  private async pasteImageFor(host: string, name: string): Promise<Upload | null> {
    const d = wailsDesktop(this.win);
    if (typeof d?.PasteImage !== "function") return null; // an older window: as before, nothing to paste
    const r = await d.PasteImage(name, host);
    if (r.status === 204) return null;
    return parseJSON<Upload>({ status: r.status, body: r.body ?? "" });
  }

  private ensureDoorbell(): void {
    if (this.offDoorbell) return;
    this.offDoorbell = onWailsEvent(
      DOORBELL,
      (...data) => {
        for (const d of doorbells(data)) this.rings.get(d.run_id)?.forEach((ring) => ring(d.seq));
      },
      this.win,
    );
  }

  /**
   * Rings with the seq each doorbell of this run carries (Infinity when it
   * carries none). It reads nothing: RunStore pages after its cursor.
   */
  ringRun(runId: string, ring: (seq: number) => void): () => void {
    this.ensureDoorbell();
    let set = this.rings.get(runId);
    if (!set) this.rings.set(runId, (set = new Set()));
    set.add(ring);
    return () => {
      const cur = this.rings.get(runId);
      cur?.delete(ring);
      if (cur && cur.size === 0) this.rings.delete(runId);
    };
  }

  /**
   * The watch bus over the bound Request (its snapshot) and `watch` events
   * (its changes). Messages that raced the snapshot (seq ≤ its seq) are
   * dropped; a gap in seqs, or a new snapshot from Go (the app
   * reconnected to its bus), starts over from a fresh snapshot.
   */
  watchBus(h: BusHandlers): () => void {
    let stopped = false;
    let seq = -1; // -1: waiting for a snapshot
    let early: WatchMessage[] = [];
    let retryMs = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let off: (() => void) | null = null;
    // The Wails runtime may be injected after this page's script starts:
    // listen as soon as it is there.
    const listen = () => {
      if (off || !wailsRuntime(this.win)?.EventsOn) return;
      off = onWailsEvent(WATCH, (...data) => data.forEach((d) => deliver(d as WatchMessage)), this.win);
    };
    const again = () => {
      retryMs = Math.min(5000, Math.max(100, retryMs * 2));
      retry = setTimeout(() => void resync(), retryMs);
    };
    const resync = async () => {
      seq = -1;
      early = [];
      listen();
      try {
        const snap = await this.api.watchSnapshot();
        if (stopped) return;
        seq = snap.seq;
        h.onMessage(snap);
        const held = early;
        early = [];
        held.forEach(deliver);
        if (off) retryMs = 0;
        else again(); // no runtime events yet: look again soon
      } catch (err) {
        if (stopped) return;
        h.onError?.(err);
        // The backend may still be opening (the window starts first):
        // try again, backing off, until it answers.
        again();
      }
    };
    const deliver = (m: WatchMessage) => {
      if (stopped || !m || typeof m.type !== "string" || m.type === "doorbell") return;
      if (m.type === "snapshot") {
        seq = m.seq;
        h.onMessage(m);
        return;
      }
      if (seq < 0) {
        early.push(m);
        return;
      }
      if (m.type === "goodbye") {
        void resync();
        return;
      }
      if (m.seq <= seq) return;
      if (m.seq > seq + 1) {
        void resync();
        return;
      }
      seq = m.seq;
      h.onMessage(m);
    };
    void resync();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      off?.();
    };
  }
}

function makeBridge(get: () => WailsDesktop | undefined, win: unknown): DesktopBridge {
  const need = <K extends keyof WailsDesktop>(k: K): NonNullable<WailsDesktop[K]> => {
    const d = get();
    const f = d?.[k];
    if (typeof f !== "function") throw new BackendUnavailableError(`Desktop.${String(k)} is not available`);
    return (f as (...a: unknown[]) => unknown).bind(d) as NonNullable<WailsDesktop[K]>;
  };
  return {
    info: async (): Promise<DesktopInfo> => need("Info")(),
    getAutostart: async () => Boolean(await need("GetAutostart")()),
    setAutostart: async (on) => Boolean(await need("SetAutostart")(on)),
    pickFolder: async (title) => (await need("PickFolder")(title)) ?? "",
    pickFiles: async (title, folder) => {
      const d = get();
      if (folder && typeof d?.PickFilesIn === "function") return (await d.PickFilesIn(title, folder)) ?? [];
      return (await need("PickFiles")(title)) ?? [];
    },
    saveExport: async (f) => {
      const r = await need("SaveExport")(f.filename, f.content);
      return { path: r?.path ?? "", shown: r?.shown || r?.path || "" };
    },
    showFolder: async (path) => {
      await need("ShowFolder")(path);
    },
    setTheme: async (theme) => {
      const f = get()?.SetTheme;
      if (typeof f === "function") await f.call(get(), theme);
    },
    quit: (runs) => void need("Quit")(runs ?? ""),
    onAutostartChanged: (cb) => onWailsEvent("autostart:changed", (v) => cb(Boolean(v)), win),
    onSecondInstance: (cb) => onWailsEvent("app:second-instance", (v) => cb(secondInstance(v)), win),
    onOpenSession: (cb) => onWailsEvent("app:open-session", (v) => cb(openSessionId(v)), win),
  };
}

/** The app:open-session payload ({session_id}), defensively: "" when absent. */
export function openSessionId(v: unknown): string {
  const id = v && typeof v === "object" ? (v as { session_id?: unknown }).session_id : undefined;
  return typeof id === "string" ? id : "";
}

/** The app:second-instance payload ({args, cwd}), defensively. */
export function secondInstance(v: unknown): { args: string[]; cwd: string } {
  const o = (v && typeof v === "object" ? v : {}) as { args?: unknown; cwd?: unknown };
  const args = Array.isArray(o.args) ? o.args.filter((a): a is string => typeof a === "string") : [];
  return { args, cwd: typeof o.cwd === "string" ? o.cwd : "" };
}

/**
 * The folder a launch asked to open: its first argument that is not a flag,
 * made absolute against the launch's working directory. undefined when none.
 */
export function launchFolder(launch: { args: string[]; cwd: string }): string | undefined {
  const arg = launch.args.find((a) => a !== "" && !a.startsWith("-"));
  if (!arg) return undefined;
  if (arg.startsWith("/") || /^[A-Za-z]:[\\/]/.test(arg)) return arg;
  if (!launch.cwd) return undefined;
  const sep = launch.cwd.includes("\\") && !launch.cwd.includes("/") ? "\\" : "/";
  const base = launch.cwd.endsWith(sep) ? launch.cwd : launch.cwd + sep;
  return base + (arg === "." ? "" : arg.replace(/^\.\//, ""));
}

/** The bytes of a blob as base64, in chunks (a 20 MiB file in one call overflows the stack). */
export async function toBase64(b: Blob): Promise<string> {
  const bytes = new Uint8Array(await b.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
