// The backend half of Settings: each agent's config ("agents.<name>") and
// the retention setting, read and written through GET/PUT /api/settings.
import { ChevronDown, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import {
  ConfigError,
  fromForm,
  keyHint,
  parseRetention,
  retentionText,
  toForm,
  type AgentConfig,
  type AgentForm,
} from "../../settings/agentConfig";
import type { ApiClient } from "../../transport/api";
import type { AgentInfo, Settings } from "../../transport/types";
import { AddAgent } from "./AddAgent";
import { MAX_RUNS_KEY, RunLimitSetting } from "./RunLimitSetting";
import { causeText } from "../common/bannerError";

export type SettingsApi = Pick<ApiClient, "agents" | "getSettings" | "putSettings" | "addAgent" | "removeAgent" | "agentRegistry">;

export const RETENTION_KEY = "retention_days";
export const agentKey = (name: string) => `agents.${name}`;

/** A refusal's words; transport noise as a plain cause (bannerError.ts). */
function errText(e: unknown): string {
  return causeText(e);
}

function asConfig(v: unknown): AgentConfig | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as AgentConfig) : undefined;
}

/** Agents and retention; absent when there is no backend to store them. */
export function BackendSettings({ api }: { api: SettingsApi }) {
  const [settings, setSettings] = useState<Settings | null>();
  const [agents, setAgents] = useState<AgentInfo[] | null>();
  const [checking, setChecking] = useState(false);
  const [loadErr, setLoadErr] = useState<string>();

  // again: an explicit re-check; otherwise the health last checked (cheap).
  const check = useCallback(async (again = false) => {
    setChecking(true);
    try {
      setAgents(await api.agents(again));
    } catch (e) {
      setAgents(null);
      setLoadErr(errText(e));
    } finally {
      setChecking(false);
    }
  }, [api]);

  useEffect(() => {
    let live = true;
    api.getSettings().then(
      (s) => live && setSettings(s ?? {}),
      (e) => {
        if (!live) return;
        setSettings(null);
        setLoadErr(errText(e));
      },
    );
    void check();
    return () => {
      live = false;
    };
  }, [api, check]);

  const save = useCallback(
    async (patch: Settings) => {
      const all = await api.putSettings(patch);
      setSettings(all ?? { ...settings, ...patch });
    },
    [api, settings],
  );

  if (settings === null) {
    return <p className="control-note" role="alert">Cannot read settings: {loadErr}</p>;
  }
  return (
    <>
      <section className="settings-section" aria-labelledby="agents-head">
        <div className="section-head">
          <h3 id="agents-head">Agents</h3>
          <button type="button" className="btn btn-ghost" onClick={() => void check(true)} disabled={checking} aria-busy={checking}>
            <RefreshCw size={14} aria-hidden className={checking ? "spin" : undefined} /> Check again
          </button>
        </div>
        <p className="quiet">How Hermes Desk starts each agent. Empty fields keep the agent's defaults; changes apply to runs started afterwards.</p>
        {settings === undefined || agents === undefined ? (
          <p className="quiet" role="status">Looking for installed agents…</p>
        ) : agents === null ? (
          <p className="control-note" role="alert">Cannot list agents: {loadErr}</p>
        ) : agents.length === 0 ? (
          <p className="quiet">No agents are known to this build.</p>
        ) : (
          <ul className="agent-list">
            {agents.map((a) => (
              <AgentItem
                key={a.name}
                agent={a}
                stored={asConfig(settings[agentKey(a.name)])}
                onSave={async (cfg) => {
                  await save({ [agentKey(a.name)]: cfg });
                  await check();
                }}
                onRemove={
                  a.added
                    ? async () => {
                        await api.removeAgent(a.name);
                        setSettings(await api.getSettings());
                        await check();
                      }
                    : undefined
                }
              />
            ))}
          </ul>
        )}
        {agents && (
          <AddAgent
            api={api}
            onAdded={async () => {
              setSettings(await api.getSettings());
              await check();
            }}
          />
        )}
      </section>
      {settings !== undefined && <RetentionSetting value={settings[RETENTION_KEY]} onSave={(days) => save({ [RETENTION_KEY]: days })} />}
      {settings !== undefined && <RunLimitSetting value={settings[MAX_RUNS_KEY]} onSave={(n) => save({ [MAX_RUNS_KEY]: n })} />}
    </>
  );
}

/** The agents whose "installed" is not a program on PATH (backend/adapter/command, backend/adapter/openai). */
export const COMMAND_AGENT = "command";
export const SERVER_AGENT = "openai-compatible";

/** The badge: a command not yet set up, a command or server that cannot be reached, or a program not installed are told apart. */
export function agentState(a: AgentInfo, stored?: AgentConfig): { label: string; tone: string } {
  if (!a.installed && a.name === COMMAND_AGENT) {
    return stored?.command?.length ? { label: "Command not found", tone: "needs" } : { label: "Not set up", tone: "muted" };
  }
  if (!a.installed && a.name === SERVER_AGENT) return { label: "Server not reachable", tone: "needs" };
  if (!a.installed) return { label: "Not installed", tone: "muted" };
  if (a.ok === false) return { label: "Needs attention", tone: "needs" };
  return { label: "Ready", tone: "ok" };
}

function AgentItem({ agent: a, stored, onSave, onRemove }: { agent: AgentInfo; stored?: AgentConfig; onSave(c: AgentConfig): Promise<void>; onRemove?(): Promise<void> }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const st = agentState(a, stored);
  const name = a.display_name || a.name;
  return (
    <li className="agent-item">
      <button type="button" className="agent-head" aria-expanded={open} aria-controls={`${id}-form`} onClick={() => setOpen((o) => !o)}>
        <ChevronDown size={14} className={`chev${open ? "" : " folded"}`} aria-hidden />
        <span className="agent-name ellipsis">{name}</span>
        {a.display_name && a.display_name !== a.name && <span className="mono quiet">{a.name}</span>}
        <span className="spacer" />
        {a.version && <span className="mono quiet ellipsis agent-version">{a.version}</span>}
        <span className={`badge tone-${st.tone}`}>{st.label}</span>
      </button>
      {a.message && <p className="quiet agent-message">{a.message}</p>}
      {open && <AgentEditor id={`${id}-form`} name={name} stored={stored} onSave={onSave} command={a.name === COMMAND_AGENT} onRemove={onRemove} />}
    </li>
  );
}

/** command: the "Any command" agent, which runs a command line and has no model server, key or home folder. */
/** onRemove: an agent the person added, which they can remove (built-in ones cannot). */
function AgentEditor({ id, name, stored, onSave, command, onRemove }: { id: string; name: string; stored?: AgentConfig; onSave(c: AgentConfig): Promise<void>; command?: boolean; onRemove?(): Promise<void> }) {
  const [form, setForm] = useState<AgentForm>(() => toForm(stored));
  const [err, setErr] = useState<{ field?: keyof AgentForm; text: string }>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const hint = keyHint(stored?.api_key);
  const set = (k: keyof AgentForm, v: string | boolean) => {
    setForm((f) => ({ ...f, [k]: v }));
    setNote(undefined);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    let cfg: AgentConfig;
    try {
      cfg = fromForm(form, stored);
    } catch (x) {
      setErr({ field: x instanceof ConfigError ? x.field : undefined, text: errText(x) });
      return;
    }
    setErr(undefined);
    setBusy(true);
    try {
      await onSave(cfg);
      // The typed key is stored now: clear it so it is never shown again.
      setForm((f) => ({ ...f, api_key: "", clearKey: false }));
      setNote("Saved. Checked the agent again.");
    } catch (x) {
      setErr({ text: `Could not save: ${errText(x)}` });
    } finally {
      setBusy(false);
    }
  };

  const field = (k: keyof AgentForm) => ({
    id: `${id}-${k}`,
    "aria-invalid": err?.field === k ? true : undefined,
    "aria-describedby": err?.field === k ? `${id}-err` : undefined,
  });
  return (
    <form id={id} className="agent-form" onSubmit={submit} aria-label={`${name} settings`} noValidate>
      <label htmlFor={`${id}-command`} className="field-label">Command</label>
      <input {...field("command")} className="input mono" value={form.command} onChange={(e) => set("command", e.target.value)} placeholder="default" spellCheck={false} autoComplete="off" />
      <p className="quiet hint">Program and arguments, split on spaces; quote an argument that contains spaces.</p>

      <label htmlFor={`${id}-env`} className="field-label">Environment</label>
      <textarea {...field("env")} className="input mono textarea" rows={3} value={form.env} onChange={(e) => set("env", e.target.value)} placeholder="KEY=VALUE, one per line" spellCheck={false} />

      {!command && (
        <>
          <label htmlFor={`${id}-base_url`} className="field-label">Base URL</label>
          <input {...field("base_url")} className="input mono" value={form.base_url} onChange={(e) => set("base_url", e.target.value)} placeholder="https://… (model server, where the agent uses one)" spellCheck={false} autoComplete="off" />

          <label htmlFor={`${id}-api_key`} className="field-label">API key</label>
          <div className="key-row">
            <input
              {...field("api_key")}
              type="password"
              className="input mono"
              value={form.api_key}
              onChange={(e) => set("api_key", e.target.value)}
              placeholder={form.clearKey ? "Will be removed on save" : hint ? `${hint} — type to replace` : "Not set"}
              autoComplete="new-password"
              disabled={form.clearKey}
            />
            {hint && (
              <label className="check">
                <input type="checkbox" checked={form.clearKey} onChange={(e) => set("clearKey", e.target.checked)} /> Remove
              </label>
            )}
          </div>

          <label htmlFor={`${id}-home`} className="field-label">Home folder</label>
          <input {...field("home")} className="input mono" value={form.home} onChange={(e) => set("home", e.target.value)} placeholder="the agent's own config folder (optional)" spellCheck={false} autoComplete="off" />
        </>
      )}

      <label htmlFor={`${id}-options`} className="field-label">Options</label>
      <textarea {...field("options")} className="input mono textarea" rows={2} value={form.options} onChange={(e) => set("options", e.target.value)} placeholder="key=value, one per line (e.g. Codex sandbox=workspace-write)" spellCheck={false} />
      <p className="quiet hint">The adapter's own switches; see the README for each agent's.</p>

      {err && <p id={`${id}-err`} className="control-note tone-fail" role="alert">{err.text}</p>}
      {note && <p className="control-note" role="status">{note}</p>}
      <div className="dialog-foot">
        {onRemove && (
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              onRemove().catch((x) => {
                setErr({ text: `Could not remove: ${errText(x)}` });
                setBusy(false);
              });
            }}
          >
            Remove {name}
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Saving…" : `Save ${name}`}</button>
      </div>
    </form>
  );
}

function RetentionSetting({ value, onSave }: { value: unknown; onSave(days: number): Promise<void> }) {
  const [text, setText] = useState(() => retentionText(value));
  const [on, setOn] = useState(() => retentionText(value) !== "");
  const [err, setErr] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);

  const store = async (t: string) => {
    let days: number;
    try {
      days = parseRetention(t);
    } catch (x) {
      setErr(errText(x));
      return;
    }
    setErr(undefined);
    setBusy(true);
    try {
      await onSave(days);
      setText(days ? String(days) : "");
      setOn(days > 0);
      setNote(days ? `Saved: runs older than ${days} day${days === 1 ? "" : "s"} are compacted.` : "Saved: retention is off.");
    } catch (x) {
      setErr(`Could not save: ${errText(x)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="settings-section" aria-labelledby="retention-head">
      <h3 id="retention-head">History</h3>
      <form
        className="retention-row"
        onSubmit={(e) => {
          e.preventDefault();
          void store(text);
        }}
        noValidate
      >
        <label htmlFor="retention-days" className="field-label">Compact runs older than</label>
        <input
          id="retention-days"
          className="input retention-input"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder="Off"
          value={text}
          aria-invalid={err ? true : undefined}
          aria-describedby="retention-help"
          onChange={(e) => {
            setText(e.target.value);
            setNote(undefined);
          }}
        />
        <span className="quiet">days</span>
        <span className="spacer" />
        {on && (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void store("")}>Turn off</button>
        )}
        <button type="submit" className="btn btn-secondary" disabled={busy}>Save</button>
      </form>
      <p id="retention-help" className="quiet">
        Off by default (leave it empty). When set, the token-by-token events of finished runs older than that many days are compacted into their assembled text, so the
        database stays small while transcripts read the same.
      </p>
      {err && <p className="control-note tone-fail" role="alert">{err}</p>}
      {note && <p className="control-note" role="status">{note}</p>}
    </section>
  );
}
