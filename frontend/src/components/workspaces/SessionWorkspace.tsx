// The session header's worktree part (docs/ARCHITECTURE.md §Workspaces):
// the chip of the session's worktree, or, for a session that has not run
// yet in the project's folder, the offer to move it to a new worktree.
import { GitBranchPlus } from "lucide-react";
import { useEffect, useState } from "react";
import type { Session } from "../../transport/types";
import { causeText } from "../common/bannerError";
import { WorkspaceChip } from "./WorkspaceChip";
import { useWorkspacesContext } from "./WorkspacesContext";

export function SessionWorkspace({ session, hasRuns, onMoved }: { session: Session; hasRuns: boolean; onMoved?(): void }) {
  const ctx = useWorkspacesContext();
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string>();
  const id = session.workspace_id;
  const w = id ? ctx?.byProject[session.project_id]?.find((x) => x.id === id) : undefined;
  // A worktree made a moment ago (by the CLI, another window) that the list has not heard of yet.
  const reload = ctx?.reload;
  useEffect(() => {
    if (id && !w && reload) void reload(session.project_id);
  }, [id, w, reload, session.project_id]);
  if (!ctx || session.imported_from) return null;
  if (w) return <WorkspaceChip workspace={w} sessionIds={[session.id]} />;
  if (id || hasRuns) return null;
  const move = async () => {
    setBusy(true);
    try {
      await ctx.api.moveSession(session.id, { workspace: "worktree" });
      setErr(undefined);
      await ctx.reload(session.project_id);
      onMoved?.();
    } catch (e) {
      setErr(causeText(e));
    }
    setBusy(false);
  };
  return (
    <span className="ws">
      <button type="button" className="btn btn-ghost ws-move" disabled={busy} onClick={() => void move()} title="Before its first run, this session can work in a git worktree of its own instead of the project folder">
        <GitBranchPlus size={14} aria-hidden /> {busy ? "Making a worktree…" : "Move to a new worktree"}
      </button>
      {err && (
        <span className="control-note tone-fail ws-refusal" role="alert">
          {err}
        </span>
      )}
    </span>
  );
}
