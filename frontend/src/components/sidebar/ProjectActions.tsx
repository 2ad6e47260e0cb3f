// Rename and remove a project: the project row's actions menu and the
// removal confirmation. Removing forgets the project and its sessions in
// Hermes Desk; the folder and its files stay on disk.
import { ArchiveRestore, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { ApiError } from "../../transport/api";
import type { Project } from "../../transport/types";
import { Dialog } from "../common/Dialog";
import { ActionMenu, type MenuAnchor } from "./SessionActions";
import { revealInvisible } from "../../text/invisible";
import { causeText } from "../common/bannerError";

export function ProjectMenu({ project, at, onRename, onRemove, onArchivedWorktrees, onClose }: { project: Project; at: MenuAnchor; onRename(): void; onRemove(): void; onArchivedWorktrees?(): void; onClose(): void }) {
  const run = (f: () => void) => () => {
    onClose();
    f();
  };
  return (
    <ActionMenu label={`Actions for the project ${revealInvisible(project.name)}`} at={at} onClose={onClose}>
      <button type="button" role="menuitem" tabIndex={-1} onClick={run(onRename)}>
        <Pencil size={14} aria-hidden /> Rename
      </button>
      {onArchivedWorktrees && (
        <button type="button" role="menuitem" tabIndex={-1} onClick={run(onArchivedWorktrees)}>
          <ArchiveRestore size={14} aria-hidden /> Recently archived worktrees…
        </button>
      )}
      <button type="button" role="menuitem" tabIndex={-1} className="danger" onClick={run(onRemove)}>
        <Trash2 size={14} aria-hidden /> Remove from Hermes Desk…
      </button>
    </ActionMenu>
  );
}

/** What a refused removal means to a person. */
export function removeProjectError(e: unknown): string {
  if (e instanceof ApiError && e.status === 409) {
    return `Cannot remove it yet: ${(e.message || "a session of this project has a running agent; stop it first").replace(/\.$/, "")}.`;
  }
  if (e instanceof ApiError && e.status === 404) return "This project no longer exists.";
  return `Could not remove the project: ${causeText(e)}`;
}

/** Asks before removing, saying plainly that files on disk stay. */
export function RemoveProjectDialog({ project, sessions, onRemove, onClose }: { project: Project; sessions: number; onRemove(): Promise<void>; onClose(): void }) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  const remove = async () => {
    setBusy(true);
    try {
      await onRemove();
      onClose();
    } catch (e) {
      setErr(removeProjectError(e));
      setBusy(false);
    }
  };
  const what = sessions === 1 ? "Its session, with its messages and run history, is" : `Its ${sessions} sessions, with their messages and run history, are`;
  return (
    <Dialog title="Remove project" onClose={onClose}>
      <p>
        Remove <strong>{revealInvisible(project.name)}</strong> from Hermes Desk? {sessions > 0 ? `${what} removed from Hermes Desk.` : "It has no sessions."}
      </p>
      <p className="quiet">
        The folder <code>{revealInvisible(project.workspace)}</code> and its files are not touched. Add the folder again to start over.
      </p>
      {err && (
        <p className="control-note tone-fail delete-err" role="alert">
          {err}
        </p>
      )}
      <div className="dialog-foot gap">
        <button type="button" className="btn btn-secondary" onClick={onClose}>Cancel</button>
        <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy}>
          <Trash2 size={14} aria-hidden /> {err ? "Try again" : "Remove"}
        </button>
      </div>
    </Dialog>
  );
}
