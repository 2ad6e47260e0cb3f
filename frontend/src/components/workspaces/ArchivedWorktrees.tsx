// "Recently archived" (docs/ARCHITECTURE.md §Workspaces): the project's
// archived worktrees still kept (30 days, setting workspaces.archive_days),
// each with Restore; a refusal says why in its own sentence.
import { ArchiveRestore } from "lucide-react";
import { useState } from "react";
import type { Project, Workspace } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { revealInvisible } from "../../text/invisible";
import { recentlyArchived, shortName } from "./workspaceText";
import { useWorkspacesContext } from "./WorkspacesContext";
import "./workspaces.css";

export function ArchivedWorktrees({ project, onClose }: { project: Project; onClose(): void }) {
  const ctx = useWorkspacesContext();
  const list = recentlyArchived(ctx?.byProject[project.id] ?? []);
  return (
    <Dialog title={`Recently archived worktrees of ${revealInvisible(project.name)}`} onClose={onClose}>
      {list.length === 0 ? (
        <p className="quiet">No archived worktrees. Archiving keeps a worktree's files in a snapshot for 30 days; they can be restored from here.</p>
      ) : (
        <ul className="ws-archived-list">
          {list.map((w) => (
            <ArchivedRow key={w.id} w={w} />
          ))}
        </ul>
      )}
      <div className="dialog-foot gap">
        <button type="button" className="btn btn-secondary" onClick={onClose}>Close</button>
      </div>
    </Dialog>
  );
}

function ArchivedRow({ w }: { w: Workspace }) {
  const ctx = useWorkspacesContext();
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  const when = w.archived_at ? new Date(w.archived_at).toLocaleString() : "";
  return (
    <li>
      <span className="mono">{shortName(w)}</span>
      <span className="quiet">{when && `archived ${when}`}</span>
      <button
        type="button"
        className="btn ws-restore"
        disabled={busy || !ctx}
        onClick={async () => {
          setBusy(true);
          setErr(await ctx!.restore(w));
          setBusy(false);
        }}
      >
        <ArchiveRestore size={14} aria-hidden /> Restore
      </button>
      {err && (
        <p className="control-note tone-fail ws-refusal" role="alert">
          {err}
        </p>
      )}
    </li>
  );
}
