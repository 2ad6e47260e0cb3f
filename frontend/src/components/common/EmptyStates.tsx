import { CopyButton } from "./copy";
import { ONBOARDING } from "../../contract/wire.gen";
import { FolderOpen, KeyRound, PlugZap, Sparkles, TerminalSquare } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { AgentInfo } from "../../transport/types";

export function isInstalled(a: AgentInfo): boolean {
  return a.installed !== false;
}

/** Real agents found (the built-in demo agent does not count). */
export function realAgents(agents: AgentInfo[] | null): AgentInfo[] {
  return (agents ?? []).filter((a) => a.name !== "demo" && isInstalled(a));
}

export function BackendOffline({ inWails, onRetry }: { inWails: boolean; onRetry(): void }) {
  return (
    <div className="empty">
      <div className="empty-icon tone-muted"><PlugZap size={28} aria-hidden /></div>
      <h2>Backend not connected</h2>
      {inWails ? (
        <p>The app's service is not answering yet. It usually starts within a second; if this stays, restart Hermes Desk.</p>
      ) : (
        <p>
          This page talks to a running Hermes Desk. Start it with <code>hermesdesk serve</code> and open the login link it
          prints, or open the desktop app.
        </p>
      )}
      <p className="quiet">Retrying every few seconds.</p>
      <button type="button" className="btn btn-secondary" onClick={onRetry}>Retry now</button>
    </div>
  );
}

export function Unauthorized() {
  return (
    <div className="empty">
      <div className="empty-icon tone-needs"><KeyRound size={28} aria-hidden /></div>
      <h2>Sign-in link needed</h2>
      <p>
        <code>hermesdesk serve</code> prints a login link with a token. Open it once in this browser: the login then
        holds for this browser profile (new tabs and bookmarks too) until the token changes.
      </p>
    </div>
  );
}

export function PickProject({
  canPickFolder,
  onPick,
  onAddPath,
}: {
  canPickFolder: boolean;
  onPick(): void;
  onAddPath(path: string): Promise<string | undefined>;
}) {
  const [path, setPath] = useState("");
  const [err, setErr] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return;
    setErr(await onAddPath(path.trim()));
  };
  return (
    <div className="empty">
      <div className="empty-icon tone-accent"><FolderOpen size={28} aria-hidden /></div>
      <h2>Pick a project folder</h2>
      <p>Agents work inside a folder you choose: they read and change files there, and every run is kept with its project.</p>
      {canPickFolder ? (
        <button type="button" className="btn btn-primary" onClick={onPick} autoFocus>
          <FolderOpen size={16} aria-hidden /> Choose folder…
        </button>
      ) : (
        <form className="path-form" onSubmit={submit}>
          <label htmlFor="project-path" className="sr-only">Folder path</label>
          <input id="project-path" className="input mono" placeholder="/home/you/code/project" value={path} onChange={(e) => setPath(e.target.value)} autoFocus />
          <button type="submit" className="btn btn-primary" disabled={!path.trim()}>Add folder</button>
        </form>
      )}
      {err && <p className="control-note" role="alert">{err}</p>}
    </div>
  );
}

// How to install each agent comes from the Go catalogue through the
// generated contract (agents.Onboarding), never a copy.
const INSTALL = ONBOARDING;

export function NoAgent({ onDemo, onRecheck }: { onDemo(): void; onRecheck(): void }) {
  return (
    <div className="empty wide">
      <div className="empty-icon tone-muted"><TerminalSquare size={28} aria-hidden /></div>
      <h2>No agent found — here is how to install one</h2>
      <p>Hermes Desk drives agent command-line tools you already use. Install one, then check again.</p>
      <ul className="install-list">
        {INSTALL.map((a) => (
          <li key={a.id}>
            <strong>{a.name}</strong>
            <span className="install-cmd">
              <code className="mono">{a.command}</code>
              <CopyButton text={a.command} what="Command" />
            </span>
            <span className="quiet">{a.note}</span>
          </li>
        ))}
      </ul>
      <div className="empty-actions">
        <button type="button" className="btn btn-secondary" onClick={onRecheck}>Check again</button>
        <TryDemo onDemo={onDemo} primary />
      </div>
    </div>
  );
}

export function TryDemo({ onDemo, primary }: { onDemo(): void; primary?: boolean }) {
  return (
    <button type="button" className={`btn ${primary ? "btn-primary" : "btn-secondary"}`} onClick={onDemo}>
      <Sparkles size={16} aria-hidden /> Try the demo agent
    </button>
  );
}
