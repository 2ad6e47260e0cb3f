// The sidebar's sessions of a project by workspace (docs/ARCHITECTURE.md
// §Workspaces): the project's folder, then each worktree under its chip.
// A project whose sessions all work in its folder looks as before.
import { Folder } from "lucide-react";
import type { ReactNode } from "react";
import type { Session } from "../../transport/types";
import { WorkspaceChip } from "./WorkspaceChip";
import { ExternalWorktrees } from "./ExternalWorktrees";
import { externalWorktrees, groupByWorkspace } from "./workspaceText";
import { useWorkspacesContext } from "./WorkspacesContext";

export function WorkspaceGroups({ projectId, sessions, children }: { projectId: string; sessions: Session[]; children(items: Session[]): ReactNode }) {
  const ctx = useWorkspacesContext();
  const groups = groupByWorkspace(sessions, ctx?.byProject[projectId] ?? []);
  const external = <ExternalWorktrees list={externalWorktrees(ctx?.byProject[projectId] ?? [])} />;
  if (!ctx || groups.every((g) => !g.id))
    return (
      <>
        {children(sessions)}
        {external}
      </>
    );
  return (
    <>
      {groups.map((g) => (
        <div key={g.id || "checkout"} className="ws-group" data-workspace-group={g.id || "checkout"}>
          <div className="ws-group-head">
            {g.workspace ? (
              <WorkspaceChip compact workspace={g.workspace} sessionIds={g.items.map((s) => s.id)} />
            ) : (
              <span className="chip ws-chip" title={g.id ? "A worktree not listed yet" : "Sessions working in the project's own folder"}>
                <Folder size={12} aria-hidden /> {g.id ? "Worktree" : "Project folder"}
              </span>
            )}
          </div>
          {children(g.items)}
        </div>
      ))}
      {external}
    </>
  );
}
