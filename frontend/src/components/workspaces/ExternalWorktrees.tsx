// The project's worktrees made outside Hermes Desk (docs/ARCHITECTURE.md
// §Workspaces, "Made outside Hermes Desk"): an agent's or the person's own
// `git worktree add`, listed under the project's sessions with their
// branch and folder, read-only: no archive, no restore.
import type { Workspace } from "../../transport/types";
import { WorkspaceChip } from "./WorkspaceChip";
import "./workspaces.css";

export function ExternalWorktrees({ list }: { list: Workspace[] }) {
  if (list.length === 0) return null;
  return (
    <div className="ws-group ws-external-list" data-workspace-group="external">
      {list.map((w) => (
        <div key={w.path} className="ws-group-head">
          <WorkspaceChip compact workspace={w} sessionIds={[]} />
        </div>
      ))}
    </div>
  );
}
