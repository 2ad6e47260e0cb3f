// The workspace chip's way into the Review view (docs/ARCHITECTURE.md
// §Review). The view is its own chunk, loaded on the first click.
import { FileSearch } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { createPortal } from "react-dom";
import type { Workspace } from "../../contract/wire.gen";
import { useWorkspacesContext } from "../workspaces/WorkspacesContext";

const ReviewView = lazy(() => import("./ReviewView"));

export function ReviewButton({ workspace: w, compact }: { workspace: Workspace; compact?: boolean }) {
  const ctx = useWorkspacesContext();
  const [open, setOpen] = useState(false);
  if (!ctx || !w.id || w.state !== "ready" || w.kind !== "worktree") return null;
  return (
    <>
      <button type="button" className={compact ? "icon-btn ws-act" : "btn btn-ghost ws-act ws-review"} onClick={() => setOpen(true)} aria-label={`Review the worktree ${w.branch ?? w.id}`} title="Review what the agent changed: file by file, comment, revert">
        <FileSearch size={14} aria-hidden /> {!compact && "Review"}
      </button>
      {open &&
        createPortal(
          <Suspense fallback={null}>
            <ReviewView workspace={w} api={ctx.api} bus={ctx.bus} onClose={() => setOpen(false)} />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
