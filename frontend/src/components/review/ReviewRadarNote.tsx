// Above a reviewed file's diff, what the conflict radar says of it
// (docs/ARCHITECTURE.md §Review, §Conflict radar): which other worktrees
// change it and on which of its lines (marked in the diff too), with the
// suggested merge order. The words are reviewRadar.ts's.
import { TriangleAlert } from "lucide-react";
import type { FileOverlap, LineRange } from "./reviewRadar";
import { overlapText } from "./reviewRadar";

export function ReviewRadarNote({ overlaps, order }: { overlaps: readonly { o: FileOverlap; ranges: LineRange[] }[]; order: string }) {
  if (overlaps.length === 0) return null;
  return (
    <div className="rv-radar" role="note" aria-label="Overlapping changes">
      {overlaps.map(({ o, ranges }) => (
        <p key={o.workspaceId} className="rv-radar-line" title={theirLines(o)}>
          <TriangleAlert size={14} aria-hidden /> <span>{overlapText(o.branch, ranges)}</span>
        </p>
      ))}
      {order && <p className="rv-radar-order quiet">{order}</p>}
    </div>
  );
}

/** The tooltip: the other worktree's version of the places they meet. */
function theirLines(o: FileOverlap): string {
  const lines = o.hunks.flatMap((h) => h.theirs).slice(0, 12);
  return lines.length ? `${o.branch}'s version:\n${lines.join("\n")}` : `${o.branch} changes this file too`;
}
