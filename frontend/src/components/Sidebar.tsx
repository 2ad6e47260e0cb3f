import { ChevronDown, Folder, FolderPlus, PanelLeftClose, Plus, Settings } from "lucide-react";
import { useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import type { Project, RunInfo, Session } from "../transport/types";

export type Marker = "running" | "needs" | "unread" | undefined;

export function dayLabel(iso: string | undefined, now = new Date()): string {
  if (!iso) return "Earlier";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "Earlier";
  const start = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((start(now) - start(d)) / 86_400_000);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return d.toLocaleDateString(undefined, { weekday: "long" });
  return d.toLocaleDateString(undefined, { month: "short", day: "numeric", year: d.getFullYear() === now.getFullYear() ? undefined : "numeric" });
}

/** Sessions (already ordered by activity) in day groups, order kept. */
export function groupByDay(sessions: Session[], now = new Date()): { label: string; items: Session[] }[] {
  const groups: { label: string; items: Session[] }[] = [];
  for (const s of sessions) {
    const label = dayLabel(s.updated_at ?? s.created_at, now);
    const g = groups[groups.length - 1];
    if (g && g.label === label) g.items.push(s);
    else groups.push({ label, items: [s] });
  }
  return groups;
}

export function sessionMarker(s: Session, active: RunInfo[], unread: boolean): Marker {
  const runs = active.filter((r) => r.session_id === s.id);
  if (runs.some((r) => r.status === "awaiting_approval" || r.status === "awaiting_clarify")) return "needs";
  if (runs.length > 0) return "running";
  return unread ? "unread" : undefined;
}

const MARKER_LABEL = { running: "running", needs: "needs you", unread: "unread" } as const;

export interface SidebarProps {
  projects: Project[];
  sessions: Record<string, Session[]>;
  active: RunInfo[];
  selectedProject?: string;
  selectedSession?: string;
  isUnread(s: Session): boolean;
  onSelectProject(id: string): void;
  onSelectSession(s: Session): void;
  onNewSession(projectId: string): void;
  onAddProject(): void;
  onSettings(): void;
  onCollapse(): void;
  width: number;
  onWidth(w: number): void;
  connected: boolean;
}

export function Sidebar(p: SidebarProps) {
  const [folded, setFolded] = useState<Record<string, boolean>>({});
  const drag = useRef<{ x: number; w: number } | null>(null);

  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { x: e.clientX, w: p.width };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) p.onWidth(drag.current.w + e.clientX - drag.current.x);
  };
  const onUp = () => (drag.current = null);
  const onResizeKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "ArrowLeft") p.onWidth(p.width - 16);
    if (e.key === "ArrowRight") p.onWidth(p.width + 16);
  };

  return (
    <nav className="sidebar" aria-label="Projects and sessions" style={{ width: p.width }}>
      <div className="sidebar-top">
        <span className="brand">
          <span className="brand-mark" aria-hidden>H</span>
          Hermes Desk
        </span>
        <span className="spacer" />
        <button type="button" className="icon-btn" onClick={p.onCollapse} title="Hide sidebar (Ctrl+B)" aria-label="Hide sidebar">
          <PanelLeftClose size={16} />
        </button>
      </div>

      <div className="sidebar-scroll">
        <div className="sidebar-section-head">
          <span>Projects</span>
          <button type="button" className="icon-btn" onClick={p.onAddProject} disabled={!p.connected} title="Add a project folder" aria-label="Add a project folder">
            <FolderPlus size={16} />
          </button>
        </div>
        {p.projects.length === 0 && (
          <p className="sidebar-empty">{p.connected ? "No projects yet. Add a folder to start." : "Projects appear here once the backend is connected."}</p>
        )}
        {p.projects.map((proj) => {
          const list = (p.sessions[proj.id] ?? []).filter((s) => !s.archived);
          const isFolded = folded[proj.id];
          return (
            <div key={proj.id} className="project">
              <div className={`project-row${p.selectedProject === proj.id && !p.selectedSession ? " selected" : ""}`}>
                <button
                  type="button"
                  className="project-name"
                  aria-expanded={!isFolded}
                  onClick={() => {
                    setFolded((f) => ({ ...f, [proj.id]: !f[proj.id] }));
                    p.onSelectProject(proj.id);
                  }}
                  title={proj.workspace}
                >
                  <ChevronDown size={14} className={`chev${isFolded ? " folded" : ""}`} aria-hidden />
                  <Folder size={16} aria-hidden />
                  <span className="ellipsis">{proj.name}</span>
                </button>
                <button type="button" className="icon-btn" onClick={() => p.onNewSession(proj.id)} title="New session (Ctrl+N)" aria-label={`New session in ${proj.name}`}>
                  <Plus size={16} />
                </button>
              </div>
              {!isFolded && (
                <div className="session-groups">
                  {list.length === 0 && <p className="sidebar-empty indent">No sessions yet.</p>}
                  {groupByDay(list).map((g) => (
                    <div key={g.label} className="day-group">
                      <div className="day-label">{g.label}</div>
                      <ul>
                        {g.items.map((s) => {
                          const m = sessionMarker(s, p.active, p.isUnread(s) && s.id !== p.selectedSession);
                          return (
                            <li key={s.id}>
                              <button
                                type="button"
                                className={`session-row${s.id === p.selectedSession ? " selected" : ""}`}
                                aria-current={s.id === p.selectedSession ? "page" : undefined}
                                onClick={() => p.onSelectSession(s)}
                              >
                                <span className="ellipsis">{s.title || "Untitled session"}</span>
                                {m && (
                                  <span className={`marker marker-${m}`} title={MARKER_LABEL[m]}>
                                    <span className="sr-only">{MARKER_LABEL[m]}</span>
                                  </span>
                                )}
                              </button>
                            </li>
                          );
                        })}
                      </ul>
                    </div>
                  ))}
                </div>
              )}
            </div>
          );
        })}
      </div>

      <div className="sidebar-bottom">
        <button type="button" className="side-btn" onClick={p.onSettings}>
          <Settings size={16} aria-hidden /> Settings
        </button>
      </div>
      <div
        className="resize-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize sidebar"
        aria-valuenow={p.width}
        tabIndex={0}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onKeyDown={onResizeKey}
      />
    </nav>
  );
}
