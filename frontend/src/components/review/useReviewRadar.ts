// The conflict radar's answer for the worktree under review, fitted to the
// file shown (docs/ARCHITECTURE.md §Review): from the store's one watch
// stream (useConflicts), never read on its own.
import { useMemo } from "react";
import type { WatchBus } from "../../store/bus";
import type { ReviewFileDiff } from "../../transport/api";
import type { Workspace } from "../../transport/types";
import { branchName, overlapsOf } from "../radar/radarText";
import { useConflicts } from "../radar/useConflicts";
import { useWorkspacesContext } from "../workspaces/WorkspacesContext";
import { fileOverlaps, orderText, overlapRanges, overlappingPaths, type FileOverlap, type LineRange } from "./reviewRadar";

export interface ReviewRadar {
  /** The reviewed paths another worktree changes too. */
  paths: Set<string>;
  /** The shown file's overlaps with the lines they are on. */
  file: { o: FileOverlap; ranges: LineRange[] }[];
  /** Those lines' numbers, to mark in the diff. */
  marked: Set<number>;
  order: string;
}

export function useReviewRadar(bus: WatchBus | undefined, w: Workspace, diff: ReviewFileDiff | undefined): ReviewRadar {
  const ctx = useWorkspacesContext();
  const c = useConflicts(bus ?? ctx?.bus, w.project_id);
  return useMemo(() => {
    const list = overlapsOf(c, w.id);
    const file = diff ? fileOverlaps(list, diff.path).map((o) => ({ o, ranges: overlapRanges(o) })) : [];
    const marked = new Set<number>();
    for (const { ranges } of file) for (const r of ranges) for (let n = r.from; n <= r.to; n++) marked.add(n);
    // The radar names the branches it compares; the context the rest.
    const names = (id: string) => {
      const x = id === w.id ? w : ctx?.get(id);
      return x ? branchName(x.branch ?? "", id) : (list.find((o) => o.workspaceId === id)?.branch ?? branchName("", id));
    };
    return { paths: overlappingPaths(list), file, marked, order: list.length ? orderText(c?.order ?? [], w.id, names) : "" };
  }, [c, w, diff, ctx]);
}
