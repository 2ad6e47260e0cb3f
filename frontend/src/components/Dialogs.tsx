import { Monitor, Moon, Search, Sun } from "lucide-react";
import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent, type ReactElement } from "react";
import type { ThemePref } from "../app/theme";
import type { DesktopBridge } from "../transport/transport";
import type { DesktopInfo, Project, SearchHit, Session } from "../transport/types";
import { BackendSettings, type SettingsApi } from "./AgentSettings";
import { Dialog } from "./Dialog";

export function SettingsDialog({
  theme,
  onTheme,
  desktop,
  onAbout,
  onClose,
  api,
}: {
  theme: ThemePref;
  onTheme(t: ThemePref): void;
  desktop?: DesktopBridge;
  /** Agents and retention live in the backend; absent while it is not connected. */
  api?: SettingsApi;
  onAbout(): void;
  onClose(): void;
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
      {api ? <BackendSettings api={api} /> : <p className="quiet">Agent and history settings appear once the backend is connected.</p>}
      <div className="dialog-foot">
        {desktop && (
          // Closing the window keeps runs going in the tray; this really exits.
          <button type="button" className="btn btn-ghost" onClick={() => desktop.quit()}>Quit Hermes Desk</button>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={onAbout}>About Hermes Desk</button>
      </div>
    </Dialog>
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

export const SHORTCUTS: [string, string][] = [
  ["Ctrl/⌘ K", "Switch to a session"],
  ["Ctrl/⌘ N", "New session in the current project"],
  ["Ctrl/⌘ B", "Show or hide the sidebar"],
  ["Ctrl/⌘ I", "Show or hide the inspector"],
  ["Ctrl/⌘ ,", "Settings"],
  ["Ctrl/⌘ .", "Stop the running agent"],
  ["F2", "Rename the current session"],
  ["Delete", "Delete the focused session (sidebar)"],
  ["Shift F10", "Session actions (sidebar)"],
  ["Enter", "Send (Shift+Enter: new line)"],
  ["1 – 9", "Pick an approval option"],
  ["Esc", "Close a dialog"],
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

/** Full-text hits are asked for once typing pauses, from this many characters. */
const SEARCH_MIN = 3;
const SEARCH_DELAY_MS = 200;

export function QuickSwitch({
  projects,
  sessions,
  onPick,
  onClose,
  search,
}: {
  projects: Project[];
  sessions: Record<string, Session[]>;
  onPick(s: Session): void;
  onClose(): void;
  /** GET /api/search: hits across messages and tool output. */
  search?: (q: string) => Promise<SearchHit[]>;
}) {
  const [q, setQ] = useState("");
  const [sel, setSel] = useState(0);
  const [found, setFound] = useState<SearchHit[]>([]);
  const all = useMemo(
    () => projects.flatMap((p) => (sessions[p.id] ?? []).filter((s) => !s.archived).map((s) => ({ s, p }))),
    [projects, sessions],
  );
  const byId = useMemo(() => new Map(all.map((x) => [x.s.id, x])), [all]);

  useEffect(() => {
    const n = q.trim();
    if (!search || n.length < SEARCH_MIN) {
      setFound([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      search(n).then(
        (h) => live && setFound(h),
        () => live && setFound([]),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, search]);

  const hits = useMemo(() => {
    const n = q.trim().toLowerCase();
    const byTitle = (n ? all.filter(({ s, p }) => `${s.title} ${p.name} ${s.agent}`.toLowerCase().includes(n)) : all).slice(0, 50);
    const seen = new Set(byTitle.map((x) => x.s.id));
    // Then sessions whose transcripts match, once each, with the snippet.
    const byText: { s: Session; p: Project; snippet?: string }[] = [];
    for (const h of found) {
      const x = h.session_id ? byId.get(h.session_id) : undefined;
      if (!x || seen.has(x.s.id)) continue;
      seen.add(x.s.id);
      byText.push({ ...x, snippet: h.snippet });
    }
    return [...byTitle.map((x) => ({ ...x, snippet: undefined as string | undefined })), ...byText.slice(0, 20)];
  }, [all, byId, found, q]);
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setSel((i) => Math.min(i + 1, hits.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setSel((i) => Math.max(i - 1, 0));
    } else if (e.key === "Enter" && hits[sel]) {
      e.preventDefault();
      onPick(hits[sel]!.s);
    }
  };
  return (
    <Dialog title="Switch to a session" onClose={onClose} wide>
      <div className="quick-input">
        <Search size={16} aria-hidden />
        <input
          className="input"
          autoFocus
          placeholder="Search sessions…"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setSel(0);
          }}
          onKeyDown={onKey}
          aria-label="Search sessions"
          role="combobox"
          aria-expanded="true"
          aria-controls="quick-list"
        />
      </div>
      <ul className="quick-list" id="quick-list" role="listbox">
        {hits.length === 0 && <li className="quiet">No session matches.</li>}
        {hits.map(({ s, p, snippet }, i) => (
          <li key={s.id} role="option" aria-selected={i === sel}>
            <button type="button" className={i === sel ? "on" : ""} onClick={() => onPick(s)} onMouseEnter={() => setSel(i)}>
              <span className="ellipsis">{s.title || "Untitled session"}</span>
              {snippet ? <span className="quiet ellipsis quick-snippet">{snippet}</span> : <span className="quiet">{p.name} · {s.agent}</span>}
            </button>
          </li>
        ))}
      </ul>
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
