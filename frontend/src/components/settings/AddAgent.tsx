// Settings → Agents → Add (docs/ARCHITECTURE.md §Agents are data): the
// person's own agent by id, name, kind, command and environment, or one of
// the ACP registry's (a dated snapshot shipped in the app) filling the form.
import { Plus } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { ConfigError, shellJoin } from "../../settings/agentConfig";
import { KINDS, definitionOf, emptyAddForm, formFromOffer, type AddAgentForm } from "../../settings/addAgent";
import type { ApiClient } from "../../transport/api";
import type { AgentKind, AgentRegistry } from "../../transport/types";
import { causeText, errorMessage } from "../common/bannerError";

export type AddAgentApi = Pick<ApiClient, "addAgent" | "agentRegistry">;

/** A refusal's words; transport noise as its plain cause (bannerError.ts). */
function errText(e: unknown): string {
  return causeText(e);
}

/** The field a backend refusal names ("env: …"), to mark it. */
function fieldOf(message: string): keyof AddAgentForm | undefined {
  const f = /^(id|name|kind|command|args|env|base_url):/.exec(message)?.[1];
  return f === "args" ? "command" : (f as keyof AddAgentForm | undefined);
}

export function AddAgent({ api, onAdded }: { api: AddAgentApi; onAdded(): Promise<void> | void }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<AddAgentForm>(emptyAddForm);
  const [reg, setReg] = useState<AgentRegistry | null>();
  const [err, setErr] = useState<{ field?: keyof AddAgentForm; text: string }>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!open || reg !== undefined) return;
    let live = true;
    api.agentRegistry().then(
      (r) => live && setReg(r),
      () => live && setReg(null),
    );
    return () => {
      live = false;
    };
  }, [api, open, reg]);

  const set = (k: keyof AddAgentForm, v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setNote(undefined);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setErr(undefined);
    try {
      const d = await api.addAgent(definitionOf(form));
      setNote(`Added ${d.name || form.name}. It is offered for new sessions.`);
      setForm(emptyAddForm());
      setOpen(false);
      await onAdded();
    } catch (x) {
      const text = errText(x);
      // The environment is checked here first (parseEnv); the rest by the backend, which names the field.
      setErr({ field: x instanceof ConfigError && x.field === "env" ? "env" : fieldOf(errorMessage(x)), text: `Could not add the agent: ${text}` });
    } finally {
      setBusy(false);
    }
  };
  const field = (k: keyof AddAgentForm) => ({
    id: `${id}-${k}`,
    "aria-invalid": err?.field === k ? true : undefined,
    "aria-describedby": err?.field === k ? `${id}-err` : undefined,
  });

  if (!open) {
    return (
      <div className="add-agent">
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
          <Plus size={14} aria-hidden /> Add agent
        </button>
        {note && <p className="control-note" role="status">{note}</p>}
      </div>
    );
  }
  return (
    <div className="add-agent">
      <form className="agent-form" onSubmit={submit} aria-label="Add an agent" noValidate>
        <label htmlFor={`${id}-id`} className="field-label">Id</label>
        <input {...field("id")} className="input mono" value={form.id} onChange={(e) => set("id", e.target.value)} placeholder="my-agent (lower-case letters, digits, - and _)" spellCheck={false} autoComplete="off" />
        <label htmlFor={`${id}-name`} className="field-label">Name</label>
        <input {...field("name")} className="input" value={form.name} onChange={(e) => set("name", e.target.value)} placeholder="How it is shown everywhere" autoComplete="off" />
        <label htmlFor={`${id}-kind`} className="field-label">Kind</label>
        <select {...field("kind")} className="input" value={form.kind} onChange={(e) => set("kind", e.target.value as AgentKind)}>
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>{k.label}</option>
          ))}
        </select>
        {form.kind === "openai-compatible" ? (
          <>
            <label htmlFor={`${id}-base_url`} className="field-label">Base URL</label>
            <input {...field("base_url")} className="input mono" value={form.base_url} onChange={(e) => set("base_url", e.target.value)} placeholder="http://127.0.0.1:8080/v1" spellCheck={false} autoComplete="off" />
          </>
        ) : (
          <>
            <label htmlFor={`${id}-command`} className="field-label">Command</label>
            <input {...field("command")} className="input mono" value={form.command} onChange={(e) => set("command", e.target.value)} placeholder={form.kind === "acp" ? "opencode acp" : "llm -m mistral {message}"} spellCheck={false} autoComplete="off" />
            <p className="quiet hint">Program and arguments, split on spaces; quote an argument that contains spaces.</p>
          </>
        )}
        <label htmlFor={`${id}-env`} className="field-label">Environment</label>
        <textarea {...field("env")} className="input mono textarea" rows={2} value={form.env} onChange={(e) => set("env", e.target.value)} placeholder="KEY=VALUE, one per line" spellCheck={false} />
        {err && <p id={`${id}-err`} className="control-note tone-fail" role="alert">{err.text}</p>}
        <div className="dialog-foot">
          <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)} disabled={busy}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Adding…" : "Add agent"}</button>
        </div>
      </form>
      <section className="registry" aria-labelledby={`${id}-reg`}>
        <h4 id={`${id}-reg`}>From the ACP registry{reg ? ` (snapshot of ${reg.date})` : ""}</h4>
        {reg === undefined ? (
          <p className="quiet" role="status">Reading the registry…</p>
        ) : reg === null ? (
          <p className="quiet">The registry snapshot could not be read; type the agent in above.</p>
        ) : (
          <ul className="registry-list">
            {reg.agents.map((o) => (
              <li key={o.id} className="registry-item">
                <div className="registry-head">
                  <strong>{o.name}</strong>
                  {o.version && <span className="mono quiet">{o.version}</span>}
                  <span className="spacer" />
                  <span className={`badge tone-${o.installed ? "ok" : "muted"}`}>{o.installed ? "Installed" : "Not installed"}</span>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => { setForm(formFromOffer(o)); setErr(undefined); }} aria-label={`Use ${o.name}`}>
                    Use
                  </button>
                </div>
                {o.description && <p className="quiet">{o.description}</p>}
                <p className="mono quiet">{shellJoin([o.command, ...(o.args ?? [])])}</p>
                {!o.installed && <p className="quiet hint">Install: <span className="mono">{o.install_hint}</span></p>}
                {o.taken && <p className="quiet hint">An agent with id {o.id} exists; choose another id to add it again.</p>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
