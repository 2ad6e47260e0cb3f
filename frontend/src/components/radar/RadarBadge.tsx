// The conflict radar on a workspace's chip (docs/ARCHITECTURE.md §Conflict
// radar): a badge naming the other worktree and the file they both change,
// opening on the files' conflicting lines and the suggested merge order.
import { TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState, type CSSProperties } from "react";
import type { Workspace } from "../../transport/types";
import { useWorkspacesContext } from "../workspaces/WorkspacesContext";
import { badgeText, branchName, compactBadgeText, hunkWhere, menuPlace, orderNames, overlapsOf, sidesOf } from "./radarText";
import { useConflicts } from "./useConflicts";
import "./radar.css";

/** Lines of a hunk side shown in the menu; the review view shows the file. */
const HUNK_LINES = 3;

export function RadarBadge({ workspace: w, compact }: { workspace: Workspace; compact?: boolean }) {
  const ctx = useWorkspacesContext();
  const c = useConflicts(ctx?.bus, w.project_id);
  const box = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<CSSProperties | undefined>();
  // Open, a click elsewhere, Escape or a scroll around it closes it, as a
  // menu does (the menu is fixed: a scrolled sidebar would leave it behind).
  useEffect(() => {
    if (!open) return;
    const shut = () => box.current?.removeAttribute("open");
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !box.current?.contains(e.target as Node)) shut();
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    document.addEventListener("scroll", close, true);
    window.addEventListener("resize", shut);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
      document.removeEventListener("scroll", close, true);
      window.removeEventListener("resize", shut);
    };
  }, [open]);
  const toggled = (d: HTMLDetailsElement) => {
    const badge = d.querySelector("summary")?.getBoundingClientRect();
    // Placed from the badge as it is on screen: a fixed box's own static
    // place ignores a scrolled sidebar's offset and fell below the window.
    setPlace(d.open && badge ? menuPlace(badge, window.innerWidth, window.innerHeight, !compact) : undefined);
    setOpen(d.open);
  };
  const list = overlapsOf(c, w.id);
  if (list.length === 0) return null;
  const names = (id: string) => {
    const x = ctx?.get(id);
    return x ? branchName(x.branch ?? "", x.id) : branchName("", id);
  };
  const text = badgeText(list);
  const shown = compact ? compactBadgeText(list) : text;
  return (
    <details ref={box} className={`radar${compact ? " radar-compact" : ""}`} data-radar-workspace={w.id} onToggle={(e) => toggled(e.currentTarget)}>
      <summary className="chip chip-warn radar-badge" title={text}>
        <TriangleAlert size={12} aria-hidden />
        <span className="ellipsis">{shown}</span>
      </summary>
      <div className="radar-menu" role="group" aria-label="Overlapping changes" style={place}>
        {list.map((o) => (
          <section key={o.workspaceId} className="radar-pair">
            <div className="radar-title">
              Both change these lines: this worktree's first (green), then <span className="mono">{o.branch}</span>'s (red)
            </div>
            <ul>
              {o.files.map((f) => (
                <li key={f.path}>
                  <span className="mono">{f.path}</span>
                  {(f.hunks ?? []).slice(0, 2).map((h) => {
                    const side = sidesOf(h, o.mine);
                    const where = hunkWhere(side, o.branch);
                    return (
                      <div key={h.start} className="radar-hunk mono">
                        {where && <div className="radar-where">{where}</div>}
                        {side.mine.slice(0, HUNK_LINES).map((l, i) => (
                          <div key={`m${i}`} className="radar-line radar-ours" title="This worktree's line">
                            {l || " "}
                          </div>
                        ))}
                        {side.theirs.slice(0, HUNK_LINES).map((l, i) => (
                          <div key={`t${i}`} className="radar-line radar-theirs" title={`${o.branch}'s line`}>
                            {l || " "}
                          </div>
                        ))}
                      </div>
                    );
                  })}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <div className="radar-title">Suggested merge order (fewest conflicts first)</div>
        <ol className="radar-order">
          {orderNames(c, w.id, names).map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ol>
      </div>
    </details>
  );
}
