// The new session's "where": the project's folder or a new git worktree
// (from a base branch, the checkout's current one when left empty), with
// the project's default kept in the setting workspaces.default
// (docs/ARCHITECTURE.md §Workspaces).
import { useEffect, useId, useState } from "react";
import type { WorkspaceWhere } from "../../transport/api";
import type { Settings } from "../../transport/types";
import { causeText } from "../common/bannerError";
import { DEFAULT_SETTING, defaultKind, withDefault, type WorkspaceKind } from "./workspaceText";
import { useWorkspacesContext } from "./WorkspacesContext";
import "./workspaces.css";

/** What the choice gives POST /api/sessions. */
export function whereOf(kind: WorkspaceKind, base: string): WorkspaceWhere {
  return kind === "worktree" ? { workspace: "worktree", ...(base.trim() ? { base: base.trim() } : {}) } : { workspace: "checkout" };
}

export function WorkspaceChoice({ projectId, projectName, onChange }: { projectId: string; projectName: string; onChange(where: WorkspaceWhere): void }) {
  const ctx = useWorkspacesContext();
  const name = useId();
  const [settings, setSettings] = useState<Settings>();
  const [kind, setKind] = useState<WorkspaceKind>("checkout");
  const [base, setBase] = useState("");
  const [err, setErr] = useState<string>();
  const api = ctx?.api;
  useEffect(() => {
    if (!api) return;
    let live = true;
    api.getSettings().then(
      (s) => {
        if (!live) return;
        setSettings(s);
        setKind(defaultKind(s, projectId));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, projectId]);
  useEffect(() => onChange(whereOf(kind, base)), [kind, base, onChange]);
  if (!ctx) return null;
  const isDefault = defaultKind(settings, projectId) === kind;
  const keep = async () => {
    try {
      const s = await ctx.api.putSettings({ [DEFAULT_SETTING]: withDefault(settings, projectId, kind) });
      setSettings(s);
      setErr(undefined);
    } catch (e) {
      setErr(causeText(e));
    }
  };
  return (
    <fieldset className="ws-choice">
      <legend className="sr-only">Where the agent works</legend>
      <label>
        <input type="radio" name={name} checked={kind === "checkout"} onChange={() => setKind("checkout")} /> In the project folder
      </label>
      <label title="A git worktree of its own on a new branch, so runs at the same time do not touch each other's files">
        <input type="radio" name={name} checked={kind === "worktree"} onChange={() => setKind("worktree")} /> In a new worktree
      </label>
      {kind === "worktree" && (
        <label>
          <span className="quiet">from</span>
          <input className="input mono ws-base" value={base} onChange={(e) => setBase(e.target.value)} placeholder="current branch" aria-label="Base branch (empty: the folder's current branch)" spellCheck={false} />
        </label>
      )}
      <label className="ws-default">
        <input type="checkbox" checked={isDefault} disabled={isDefault || settings === undefined} onChange={() => void keep()} />
        {isDefault ? `The default for new sessions in ${projectName}` : `Make this the default for ${projectName}`}
      </label>
      {err && (
        <p className="control-note tone-fail" role="alert">
          {err}
        </p>
      )}
    </fieldset>
  );
}
