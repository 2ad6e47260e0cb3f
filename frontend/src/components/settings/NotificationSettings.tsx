// Settings → Notifications: one switch per kind and a global Do Not
// Disturb (backend/notify reads the same keys on every change it weighs).
import { useEffect, useState } from "react";
import type { SettingsApi } from "./AgentSettings";

type Api = Pick<SettingsApi, "getSettings" | "putSettings">;

export const NOTIFY_KEYS = {
  needsYou: "notifications.needs_you",
  finished: "notifications.finished",
  failed: "notifications.failed",
  quota: "notifications.quota",
  dnd: "notifications.dnd",
} as const;

const SWITCHES: { key: string; label: string; help: string; fallback: boolean }[] = [
  { key: NOTIFY_KEYS.needsYou, label: "When a run needs you", help: "An approval or a question is waiting. Approvals can be answered from the notification.", fallback: true },
  { key: NOTIFY_KEYS.finished, label: "When a run finishes", help: "Runs finishing together arrive as one notification.", fallback: true },
  { key: NOTIFY_KEYS.failed, label: "When a run fails", help: "Including runs interrupted by a crash or a restart.", fallback: true },
  { key: NOTIFY_KEYS.quota, label: "When a run waits for quota", help: "A run hit its agent's rate limit and waits for the reset; and when it resumes.", fallback: true },
  { key: NOTIFY_KEYS.dnd, label: "Do not disturb", help: "No notifications at all; the tray still shows what needs you.", fallback: false },
];

/** The value a switch shows: the stored boolean, else the backend's default. */
export function switchValue(settings: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const v = settings[key];
  return typeof v === "boolean" ? v : fallback;
}

export function NotificationSettings({ api }: { api: Api }) {
  const [settings, setSettings] = useState<Record<string, unknown> | null>();
  const [err, setErr] = useState<string>();
  useEffect(() => {
    let live = true;
    api.getSettings().then(
      (s) => live && setSettings(s),
      () => live && setSettings(null),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const set = async (key: string, on: boolean) => {
    setErr(undefined);
    try {
      setSettings(await api.putSettings({ [key]: on }));
    } catch {
      setErr("Could not save the notification setting. Try again.");
    }
  };

  if (settings === null) return <p className="quiet">Notification settings could not be read.</p>;
  const dnd = settings ? switchValue(settings, NOTIFY_KEYS.dnd, false) : false;
  return (
    <fieldset className="field" aria-busy={settings === undefined}>
      <legend>Notifications</legend>
      {SWITCHES.map((s) => {
        const id = `notify-${s.key.split(".")[1]}`;
        return (
          <div className="field row" key={s.key}>
            <div>
              <label htmlFor={id} className="field-label">{s.label}</label>
              <p className="quiet">{s.help}</p>
            </div>
            <input
              id={id}
              type="checkbox"
              role="switch"
              className="switch"
              checked={settings ? switchValue(settings, s.key, s.fallback) : s.fallback}
              disabled={settings === undefined || (dnd && s.key !== NOTIFY_KEYS.dnd)}
              onChange={(e) => void set(s.key, e.target.checked)}
            />
          </div>
        );
      })}
      {err && <p className="control-note" role="alert">{err}</p>}
    </fieldset>
  );
}
