import { forwardRef, useCallback, useEffect, useState } from "react";
import type { WorkspaceWhere } from "../../transport/api";
import { WorkspaceChoice } from "../workspaces/WorkspaceChoice";
import type { AgentInfo, Project } from "../../transport/types";
import type { AttachSource } from "./Attachments";
import { Composer, type ComposerHandle } from "./Composer";
import { COMMAND_AGENT } from "../settings/AgentSettings";
import { isInstalled, NoAgent, TryDemo } from "../common/EmptyStates";
import { FolderMissing, type FolderActions } from "../common/FolderMissing";

/**
 * The agent a new session starts with: the first real agent found. "Any
 * command" runs whatever command line was set up for it, so it is only
 * picked by hand, never silently (issue 23.18); with nothing else, the demo.
 */
export function defaultAgent(usable: readonly AgentInfo[]): string {
  const pick = usable.find((a) => a.name !== "demo" && a.name !== COMMAND_AGENT) ?? usable.find((a) => a.name === "demo") ?? usable[0];
  return pick?.name ?? "";
}

/** A project with no session open: pick an agent and say what to do. */
export const NewSession = forwardRef<ComposerHandle, {
  project: Project;
  agents: AgentInfo[] | null;
  /** where: the folder or a new worktree (WorkspaceChoice; docs/ARCHITECTURE.md §Workspaces). */
  onStart(agent: string, text: string, attachments?: string[], where?: WorkspaceWhere): Promise<boolean>;
  /** Where attached files come from (components/composer/Attachments.tsx). */
  attach?: AttachSource;
  /** Locate… and Remove for a project whose folder is gone (FolderMissing). */
  folder?: FolderActions;
  onRecheck(): void;
  /**
   * The person has sessions already, in any project: the install page was
   * seen and is not shown again for a second project (issue 23.18).
   */
  hasSessions?: boolean;
  /** The desktop window: the message box takes the keyboard nobody has (Composer). */
  takeKeyboard?: boolean;
}>(function NewSession({ project, agents, onStart, onRecheck, hasSessions, attach, folder, takeKeyboard }, ref) {
  const usable = (agents ?? []).filter(isInstalled);
  const real = usable.filter((a) => a.name !== "demo");
  const [agent, setAgent] = useState<string>("");
  const [where, setWhere] = useState<WorkspaceWhere>();
  const onWhere = useCallback((w: WorkspaceWhere) => setWhere(w), []);
  useEffect(() => {
    if (!agent && usable.length > 0) setAgent(defaultAgent(usable));
  }, [agent, usable]);

  const demo = () => void onStart("demo", "Show me what you can do.");

  // The whole "how to install an agent" page only the first time in a
  // project; after that a line says it and the demo is ready to take any
  // message (such as /scenario slow), not only the tour.
  const demoOnly = agents !== null && real.length === 0;
  // The folder is gone: say so before anything is sent (issue 23.12).
  if (project.folder_missing && folder) {
    return (
      <div className="main-col">
        <header className="main-head"><div className="head-title"><h1>{project.name}</h1><span className="quiet mono ellipsis head-project">{project.workspace}</span></div></header>
        <FolderMissing project={project} actions={folder} />
        <div className="session-scroll" />
        <Composer ref={ref} queueing={false} attach={attach} disabled onSend={async () => false} placeholder="The project's folder is missing: locate it above to go on." />
      </div>
    );
  }
  if (demoOnly && !hasSessions) {
    return (
      <div className="main-col">
        <header className="main-head"><div className="head-title"><h1>{project.name}</h1><span className="quiet mono ellipsis head-project">{project.workspace}</span></div></header>
        <div className="session-scroll">
          <NoAgent onDemo={demo} onRecheck={onRecheck} />
        </div>
        <Composer ref={ref} queueing={false} attach={attach} takeKeyboard={takeKeyboard} onSend={(text, files) => onStart("demo", text, files)} placeholder="Or message the demo agent (try /scenario slow)…" />
      </div>
    );
  }
  return (
    <div className="main-col">
      <header className="main-head">
        <div className="head-title">
          <h1>New session</h1>
          <span className="quiet mono ellipsis head-project" title={project.workspace}>{project.workspace}</span>
        </div>
        <span className="spacer" />
        <label className="agent-pick">
          <span className="quiet">Agent</span>
          <select className="input" value={agent} onChange={(e) => setAgent(e.target.value)} disabled={usable.length === 0}>
            {agents === null && <option value="">Looking for agents…</option>}
            {usable.map((a) => (
              <option key={a.name} value={a.name}>
                {a.display_name ?? a.name}
                {a.version ? ` ${a.version}` : ""}
                {a.ok === false ? " — not ready" : ""}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="session-empty">
        <div className="empty">
          {usable.find((a) => a.name === agent)?.ok === false && (
            <p className="control-note" role="alert">{usable.find((a) => a.name === agent)?.message || `${agent} is installed but not ready.`}</p>
          )}
          {demoOnly && <p className="quiet">No agent found yet — Settings shows how to install one. The demo agent answers meanwhile.</p>}
          <h2>What should the agent do in {project.name}?</h2>
          <WorkspaceChoice projectId={project.id} projectName={project.name} onChange={onWhere} />
          <p>Runs keep going when you close the window; come back any time to see what happened.</p>
          <TryDemo onDemo={demo} />
        </div>
      </div>
      <Composer ref={ref} queueing={false} attach={attach} takeKeyboard={takeKeyboard} disabled={!agent} onSend={(text, files) => onStart(agent, text, files, where)} placeholder={agent ? `Message ${agent}…` : "Waiting for the agent list…"} />
    </div>
  );
});
