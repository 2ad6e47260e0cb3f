// A worktree seen at a glance (docs/ARCHITECTURE.md §Workspaces): its
// branch, ahead/behind its base, changed files and size on disk, or in
// words what happened to it; with Archive (or Restore) beside it. Used in
// the session header and on each sidebar group.
import { Archive, ArchiveRestore, GitBranch, GitMerge } from "lucide-react";
import { useEffect, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { MergeDialog } from "../merge/MergeDialog";
import type { Workspace, WorkspaceDetail } from "../../transport/types";
import { RadarBadge } from "../radar/RadarBadge";
import { ReviewButton } from "../review/ReviewButton";
import { SetupOutput } from "./SetupOutput";
import { chipTitle, figures, isExternal, shortName, stateWords } from "./workspaceText";
import { useWorkspacesContext, type Workspaces } from "./WorkspacesContext";
import "./workspaces.css";

/**
 * The worktree's figures from GET /api/workspaces/{id}, one read for all
 * the chips showing it (workspaceDetails.ts): read again when the
 * workspace changes and when a run of one of sessionIds ends. Never polled.
 */
export function useWorkspaceDetail(ctx: Workspaces | null, w: Workspace | undefined, sessionIds: readonly string[]): WorkspaceDetail | undefined {
  // An outside worktree (no id) has no detail to read.
  const ready = w?.state === "ready" && !!w.id;
  const details = ctx?.details;
  const sessions = sessionIds.join(" ");
  useEffect(() => {
    if (!details || !w || !ready) return;
    return details.watch(w, sessions ? sessions.split(" ") : []);
  }, [details, w, ready, sessions]);
  return useSyncExternalStore(details ? (cb) => details.subscribe(cb) : none, () => (ready && w ? details?.get(w.id) : undefined));
}

const none = () => () => {};

export function WorkspaceChip({ workspace: w, sessionIds, compact }: { workspace: Workspace; sessionIds: readonly string[]; compact?: boolean }) {
  const ctx = useWorkspacesContext();
  const detail = useWorkspaceDetail(ctx, w, sessionIds);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [merging, setMerging] = useState(false);
  useEffect(() => setRefusal(undefined), [w.state]);
  const words = stateWords(w);
  const external = isExternal(w);
  const trouble = !external && (w.state === "gone" || w.state === "failed" || (!!w.note && w.state === "ready"));
  const act = async (f: (w: Workspace) => Promise<string | undefined>) => {
    setBusy(true);
    setRefusal(await f(w));
    setBusy(false);
  };
  const name = shortName(w);
  return (
    <span className={`ws${compact ? " ws-compact" : ""}${external ? " ws-external" : ""}`} data-workspace-id={w.id || undefined}>
      <span className={`chip ws-chip${trouble ? " chip-warn" : ""}${w.state === "archived" ? " chip-archived" : ""}`} title={chipTitle(w, detail)}>
        <GitBranch size={12} aria-hidden />
        <span className="ws-branch mono ellipsis">{name}</span>
        {w.state === "ready" && detail && !compact && figures(detail).map((f) => <span key={f} className="ws-fig">{f}</span>)}
        {w.state === "ready" && detail && compact && detail.changed > 0 && <span className="ws-fig">{detail.changed} changed</span>}
      </span>
      {ctx && w.state === "ready" && !external && w.kind === "worktree" && !compact && (
        <button type="button" className="icon-btn ws-act" disabled={busy} onClick={() => setMerging(true)} title="Merge the worktree's work into its base branch (preview first)" aria-label={`Merge the worktree ${name}`}>
          <GitMerge size={14} aria-hidden />
        </button>
      )}
      {ctx && merging && createPortal(<MergeDialog workspace={w} ctx={ctx} onClose={() => setMerging(false)} />, document.body)}
      {ctx && w.state === "ready" && !external && (
        <button type="button" className="icon-btn ws-act" disabled={busy} onClick={() => void act(ctx.archive)} title="Archive the worktree: its files are kept in a snapshot and can be restored; the branch stays" aria-label={`Archive the worktree ${name}`}>
          <Archive size={14} aria-hidden />
        </button>
      )}
      {!external && <ReviewButton workspace={w} compact={compact} />}
      {ctx && w.state === "archived" && (
        <button type="button" className={compact ? "icon-btn ws-act" : "btn btn-ghost ws-act"} disabled={busy} onClick={() => void act(ctx.restore)} aria-label={`Restore the worktree ${name}`} title="Restore the worktree: the same branch and files back">
          <ArchiveRestore size={14} aria-hidden /> {!compact && "Restore"}
        </button>
      )}
      {w.state === "ready" && !external && <RadarBadge workspace={w} compact={compact} />}
      {words && (!compact || trouble || external) && <span className={`ws-words${trouble ? " tone-fail" : " quiet"}`}>{words}</span>}
      {!compact && <SetupOutput w={w} />}
      {refusal && (
        <span className="control-note tone-fail ws-refusal" role="alert">
          {refusal}
        </span>
      )}
    </span>
  );
}
