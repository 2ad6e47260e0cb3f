import { Monitor, Moon, Sun } from "lucide-react";
import { useEffect, useState, type FormEvent, type ReactElement } from "react";
import type { ThemePref } from "../../store/theme";
import type { DesktopBridge } from "../../transport/transport";
import type { DesktopInfo } from "../../transport/types";
import { BackendSettings, type SettingsApi } from "./AgentSettings";
import { NotificationSettings } from "./NotificationSettings";
import { HistorySettings, type HistoryApi } from "../history/HistorySettings";
import { Dialog } from "../common/Dialog";
import { CheckpointSettings, type CheckpointSettingsApi } from "../checkpoints/CheckpointSettings";
import { HostsSettings, type HostsApi } from "../hosts/HostsSettings";
import type { WatchBus } from "../../store/bus";

// Quick Switch lives in its own file; re-exported where it always was.
export { QuickSwitch } from "../sidebar/QuickSwitch";

export function SettingsDialog({
  theme,
  onTheme,
  desktop,
  onAbout,
  onClose,
  api,
  activeRuns,
  bus,
}: {
  theme: ThemePref;
  onTheme(t: ThemePref): void;
  desktop?: DesktopBridge;
  /** Agents and retention live in the backend; absent while it is not connected. */
  api?: SettingsApi & Partial<HistoryApi> & Partial<Pick<CheckpointSettingsApi, "checkpointUsage">> & Partial<HostsApi>;
  onAbout(): void;
  onClose(): void;
  /** How many runs are active now (the watch bus): Quit then asks what to do with them. */
  activeRuns?(): number;
  /** The watch bus: host.changed reloads Settings → Hosts. */
  bus?: Pick<WatchBus, "subscribe">;
}) {
  // undefined: unknown yet; null: not available here.
  const [autostart, setAutostart] = useState<boolean | null | undefined>(desktop ? undefined : null);
  const [err, setErr] = useState<string>();
  useEffect(() => {
    if (!desktop) return;
    let live = true;
    desktop.getAutostart().then(
      (on) => live && setAutostart(on),
      () => live && setAutostart(null),
    );
    // The tray can flip it too; show what is on disk.
    const off = desktop.onAutostartChanged((on) => setAutostart(on));
    return () => {
      live = false;
      off();
    };
  }, [desktop]);

  const toggle = async (on: boolean) => {
    if (!desktop) return;
    setErr(undefined);
    try {
      setAutostart(await desktop.setAutostart(on));
    } catch {
      setErr("Could not change Start at login. See the app log for details.");
    }
  };

  const themes: { id: ThemePref; label: string; icon: ReactElement }[] = [
    { id: "system", label: "System", icon: <Monitor size={16} aria-hidden /> },
    { id: "light", label: "Light", icon: <Sun size={16} aria-hidden /> },
    { id: "dark", label: "Dark", icon: <Moon size={16} aria-hidden /> },
  ];
  return (
    <Dialog title="Settings" onClose={onClose} wide>
      <fieldset className="field">
        <legend>Theme</legend>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {themes.map((t) => (
            <button
              key={t.id}
              type="button"
              role="radio"
              aria-checked={theme === t.id}
              className={theme === t.id ? "on" : ""}
              onClick={() => onTheme(t.id)}
            >
              {t.icon}
              {t.label}
            </button>
          ))}
        </div>
      </fieldset>
      <div className="field row">
        <div>
          <label htmlFor="autostart" className="field-label">Start at login</label>
          <p className="quiet">
            {autostart === null
              ? "Available in the desktop app."
              : "Starts Hermes Desk quietly in the tray when you log in, so runs and approvals reach you."}
          </p>
        </div>
        <input
          id="autostart"
          type="checkbox"
          role="switch"
          className="switch"
          checked={autostart === true}
          disabled={autostart === null || autostart === undefined}
          aria-busy={autostart === undefined}
          onChange={(e) => void toggle(e.target.checked)}
        />
      </div>
      {err && <p className="control-note" role="alert">{err}</p>}
      {api && <NotificationSettings api={api} />}
      {api?.historySources && api.importHistory && <HistorySettings api={api as HistoryApi} />}
      {api?.checkpointUsage && <CheckpointSettings api={api as CheckpointSettingsApi} />}
      {api?.hosts && api.addHost && api.removeHost && <HostsSettings api={api as HostsApi} bus={bus} />}
      {api ? <BackendSettings api={api} /> : <p className="quiet">Agent and history settings appear once the backend is connected.</p>}
      <div className="dialog-foot">
        {desktop && (
          // Closing the window keeps runs going in the tray; this really exits.
          <QuitButton quit={(runs) => desktop.quit(runs)} activeRuns={activeRuns} />
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={onAbout}>About Hermes Desk</button>
      </div>
    </Dialog>
  );
}

/**
 * The Quit choices with active runs, worded as the tray's Quit submenu
 * (backend/traystate QuitItem, KeepLabel, StopLabel): both doors ask the
 * same question (docs/ARCHITECTURE.md §Quit with active runs).
 */
export function keepLabel(n: number): string {
  return `Keep ${n === 1 ? "1 run" : `${n} runs`} running in the background`;
}
export function stopLabel(n: number): string {
  return `Stop ${n === 1 ? "1 run" : `${n} runs`} and quit`;
}

/** Quit: at once with no active runs; with some, the person chooses first. */
function QuitButton({ quit, activeRuns }: { quit(runs?: "keep" | "stop"): void; activeRuns?(): number }) {
  const [asking, setAsking] = useState(0);
  if (asking > 0) {
    return (
      <div className="quit-choice" role="group" aria-label="Quit with active runs">
        <button type="button" className="btn btn-secondary" title="They go on; Hermes Desk picks them up when it starts again" onClick={() => quit("keep")}>
          {keepLabel(asking)}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => quit("stop")}>{stopLabel(asking)}</button>
        <button type="button" className="btn btn-ghost" onClick={() => setAsking(0)}>Cancel</button>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-ghost"
      onClick={() => {
        const n = activeRuns?.() ?? 0;
        if (n > 0) setAsking(n);
        else quit();
      }}
    >
      Quit Hermes Desk
    </button>
  );
}

export function AboutDialog({ desktop, onClose }: { desktop?: DesktopBridge; onClose(): void }) {
  const [info, setInfo] = useState<DesktopInfo | null | undefined>(desktop ? undefined : null);
  useEffect(() => {
    if (!desktop) return;
    desktop.info().then(setInfo, () => setInfo(null));
  }, [desktop]);
  return (
    <Dialog title="About Hermes Desk" onClose={onClose}>
      <div className="about">
        <span className="brand-mark big" aria-hidden>H</span>
        <div>
          <h3>{info?.name ?? "Hermes Desk"}</h3>
          <p className="quiet">A desktop workbench for AI agents.</p>
        </div>
      </div>
      {info ? (
        <dl className="kv">
          <dt>Version</dt>
          <dd className="mono">{info.version}</dd>
          <dt>Commit</dt>
          <dd className="mono">{info.commit}</dd>
          <dt>Data folder</dt>
          <dd className="mono selectable">{info.data_dir}</dd>
          <dt>Platform</dt>
          <dd className="mono">{info.platform}</dd>
          <dt>Tray</dt>
          <dd>{info.tray_available ? "Available" : "Not available — closing the window minimizes it"}</dd>
        </dl>
      ) : info === undefined ? (
        <p className="quiet">Reading version…</p>
      ) : (
        <p className="quiet">Running in a browser against <span className="mono">{window.location.host || "this server"}</span>. Version details are shown in the desktop app.</p>
      )}
    </Dialog>
  );
}

/** The modifier as this platform's keyboards print it. */
export function modKey(platform: string = typeof navigator === "undefined" ? "" : navigator.platform): string {
  return /Mac|iPhone|iPad/.test(platform) ? "⌘" : "Ctrl";
}
const M = modKey();

export const SHORTCUTS: [string, string][] = [
  [`${M} K`, "Switch to a session"],
  [`${M} N`, "New session in the current project"],
  [`${M} B`, "Show or hide the sidebar"],
  [`${M} I`, "Show or hide the inspector"],
  [`${M} ,`, "Settings"],
  [`${M} .`, "Stop the running agent"],
  ["F2", "Rename the current session"],
  ["Delete", "Delete the focused session (sidebar)"],
  ["Shift F10", "Session actions (sidebar)"],
  ["Enter", "Send (Shift+Enter: new line)"],
  ["1 – 9", "Pick an approval option"],
  ["Esc", "Close a dialog; leave the message box"],
  ["?", "This sheet"],
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <dl className="shortcuts">
        {SHORTCUTS.map(([k, what]) => (
          <div key={k}>
            <dt><kbd>{k}</kbd></dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

/** Switches the model of a live run (POST /api/runs/{id}/model). */
export function ModelDialog({
  current,
  onSet,
  onClose,
}: {
  current?: string;
  /** Resolves a note when the control was not accepted. */
  onSet(model: string): Promise<string | undefined>;
  onClose(): void;
}) {
  const [model, setModel] = useState(current ?? "");
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!model.trim() || busy) return;
    setBusy(true);
    const n = await onSet(model.trim());
    setBusy(false);
    if (n) setNote(n);
    else onClose();
  };
  return (
    <Dialog title="Switch model" onClose={onClose}>
      <form className="path-form" onSubmit={submit}>
        <label htmlFor="model-name" className="sr-only">Model</label>
        <input id="model-name" className="input mono" value={model} onChange={(e) => setModel(e.target.value)} autoFocus placeholder="model name" />
        <button type="submit" className="btn btn-primary" disabled={busy || !model.trim()}>Switch</button>
      </form>
      <p className="quiet">Takes effect for the rest of this run, where the agent supports it.</p>
      {note && <p className="control-note" role="alert">{note}</p>}
    </Dialog>
  );
}
