import { Archive, BarChart3, CalendarClock, ChevronDown, Ellipsis, Folder, FolderPlus, PanelLeftClose, Plus, Settings } from "lucide-react";
import { useCallback, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from "react";
import type { Project, RunInfo, Session } from "../../transport/types";
import { InlineTitle, SessionMenu, type MenuAnchor } from "./SessionActions";
import { ProjectMenu } from "./ProjectActions";
import { revealInvisible } from "../../text/invisible";
import { WorkspaceGroups } from "../workspaces/WorkspaceGroups";
import { ArchivedWorktrees } from "../workspaces/ArchivedWorktrees";
import { useWorkspacesContext } from "../workspaces/WorkspacesContext";
import { SourceBadge } from "../history/SourceBadge";

export type Marker = "running" | "needs" | "parked" | "failed" | "unread" | undefined;

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
  // An imported session is a record: nothing in it runs or waits for you.
  const runs = s.imported_from ? [] : active.filter((r) => r.session_id === s.id);
  if (runs.some((r) => r.status === "awaiting_approval" || r.status === "awaiting_clarify")) return "needs";
  if (runs.length > 0 && runs.every((r) => r.status === "parked")) return "parked";
  if (runs.length > 0) return "running";
  // The last run failed: say so in the list, not only inside (issue 23.13).
  if (s.last_run_status === "failed" || s.last_run_status === "interrupted") return "failed";
  return unread ? "unread" : undefined;
}

const MARKER_LABEL = { running: "running", needs: "needs you", parked: "waiting for quota", failed: "last run failed", unread: "unread" } as const;
/** The dots' legend, as their tooltips. */
const MARKER_TIP = {
  running: "Running: the agent is working",
  needs: "Needs you: the agent is waiting for your answer",
  parked: "Waiting for quota: the run resumes by itself when the agent's rate limit resets",
  failed: "Failed: the last run ended with an error; open the session to see why",
  unread: "Unread: new replies since you last opened it",
} as const;

export interface SidebarProps {
  projects: Project[];
  sessions: Record<string, Session[]>;
  active: RunInfo[];
  selectedProject?: string;
  selectedSession?: string;
  isUnread(s: Session): boolean;
  onSelectProject(id: string): void;
  onSelectSession(s: Session): void;
  /** Resolves an error message when the title was not saved. */
  onRename(s: Session, title: string): Promise<string | undefined>;
  onArchive(s: Session, archived: boolean): Promise<void> | void;
  /** Asks to delete (the app confirms first). */
  onDelete(s: Session): void;
  /** Resolves an error message when the name was not saved. */
  onRenameProject?(p: Project, name: string): Promise<string | undefined>;
  /** Asks to remove the project (the app confirms first). */
  onRemoveProject?(p: Project): void;
  onNewSession(projectId: string): void;
  onAddProject(): void;
  onSettings(): void;
  /** Opens the Schedules view. */
  onSchedules?(): void;
  schedulesOpen?: boolean;
  /** Opens the Usage view. */
  onUsage?(): void;
  usageOpen?: boolean;
  onCollapse(): void;
  /** Drawn over the page (narrow windows) rather than beside it. */
  overlay?: boolean;
  width: number;
  onWidth(w: number): void;
  connected: boolean;
  /** Other hosts' projects, below this computer's (components/hosts). */
  hosts?: ReactNode;
}

export function Sidebar(p: SidebarProps) {
  const [folded, setFolded] = useState<Record<string, boolean>>({});
  const [showArchived, setShowArchived] = useState<Record<string, boolean>>({});
  const [renaming, setRenaming] = useState<string>();
  const [menu, setMenu] = useState<{ s: Session; at: MenuAnchor }>();
  const [projMenu, setProjMenu] = useState<{ p: Project; at: MenuAnchor }>();
  const [renamingProject, setRenamingProject] = useState<string>();
  const [archivedOf, setArchivedOf] = useState<Project>();
  const workspaces = useWorkspacesContext();
  const closeProjMenu = useCallback(() => setProjMenu(undefined), []);
  const closeMenu = useCallback(() => setMenu(undefined), []);
  // The row moves between the lists: keep focus on it, or on the toggle that hides it.
  const archive = async (s: Session, archived: boolean) => {
    await p.onArchive(s, archived);
    requestAnimationFrame(() => {
      const row = [...document.querySelectorAll<HTMLElement>("[data-session-id]")].find((el) => el.dataset.sessionId === s.id);
      const el = row ?? document.getElementById(`archived-toggle-${s.project_id}`);
      el?.focus();
    });
  };
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
    <nav className={`sidebar${p.overlay ? " overlay" : ""}`} aria-label="Projects and sessions" style={p.overlay ? undefined : { width: p.width }}>
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
          const all = p.sessions[proj.id] ?? [];
          const list = all.filter((s) => !s.archived);
          const archived = all.filter((s) => s.archived);
          const isFolded = folded[proj.id];
          const archivedOpen = !!showArchived[proj.id];
          const row = (s: Session) => (
            <SessionRow
              key={s.id}
              s={s}
              marker={sessionMarker(s, p.active, p.isUnread(s) && s.id !== p.selectedSession)}
              selected={s.id === p.selectedSession}
              renaming={renaming === s.id}
              menuOpen={menu?.s.id === s.id}
              onSelect={() => p.onSelectSession(s)}
              onRenameStart={() => setRenaming(s.id)}
              onRenameEnd={() => setRenaming(undefined)}
              onRename={(t) => p.onRename(s, t)}
              onDelete={() => p.onDelete(s)}
              onMenu={(at) => setMenu({ s, at })}
            />
          );
          return (
            <div key={proj.id} className="project">
              <div className={`project-row${p.selectedProject === proj.id && !p.selectedSession ? " selected" : ""}`}>
                {renamingProject === proj.id && p.onRenameProject ? (
                  <InlineTitle
                    value={proj.name}
                    label="Project name"
                    className="project-title-edit"
                    onSave={(n) => p.onRenameProject!(proj, n)}
                    onDone={() => setRenamingProject(undefined)}
                  />
                ) : (
                  <button
                    type="button"
                    className="project-name"
                    aria-expanded={!isFolded}
                    onClick={() => {
                      setFolded((f) => ({ ...f, [proj.id]: !f[proj.id] }));
                      p.onSelectProject(proj.id);
                    }}
                    onContextMenu={(e) => {
                      if (!p.onRenameProject) return;
                      e.preventDefault();
                      setProjMenu({ p: proj, at: { x: e.clientX, y: e.clientY, returnTo: e.currentTarget } });
                    }}
                    title={!proj.workspace ? "Imported sessions: read-only, with no folder" : proj.folder_missing ? `${proj.workspace} no longer exists` : proj.workspace}
                  >
                    <ChevronDown size={14} className={`chev${isFolded ? " folded" : ""}`} aria-hidden />
                    <Folder size={16} aria-hidden />
                    <span className="ellipsis">{revealInvisible(proj.name)}</span>
                    {proj.folder_missing && <span className="chip chip-warn folder-missing">Folder missing</span>}
                  </button>
                )}
                {p.onRenameProject && (
                  <button
                    type="button"
                    className="icon-btn project-more"
                    aria-label={`Actions for the project ${proj.name}`}
                    aria-haspopup="menu"
                    aria-expanded={projMenu?.p.id === proj.id}
                    onClick={(e) => {
                      const r = e.currentTarget.getBoundingClientRect();
                      setProjMenu({ p: proj, at: { x: r.left, y: r.bottom + 2, returnTo: e.currentTarget } });
                    }}
                  >
                    <Ellipsis size={16} />
                  </button>
                )}
                {/* The Imported place has no folder: nothing starts there (docs/ARCHITECTURE.md §Bundles). */}
                {proj.workspace && (
                  <button type="button" className="icon-btn" onClick={() => p.onNewSession(proj.id)} title="New session (Ctrl+N)" aria-label={`New session in ${proj.name}`}>
                    <Plus size={16} />
                  </button>
                )}
              </div>
              {!isFolded && (
                <div className="session-groups">
                  {list.length === 0 && <p className="sidebar-empty indent">{archived.length ? "Every session here is archived." : "No sessions yet."}</p>}
                  <WorkspaceGroups projectId={proj.id} sessions={list}>
                    {(items) =>
                      groupByDay(items).map((g) => (
                        <div key={g.label} className="day-group">
                          <div className="day-label">{g.label}</div>
                          <ul>{g.items.map(row)}</ul>
                        </div>
                      ))
                    }
                  </WorkspaceGroups>
                  {archived.length > 0 && (
                    <button
                      type="button"
                      className="archived-toggle"
                      id={`archived-toggle-${proj.id}`}
                      aria-expanded={archivedOpen}
                      aria-controls={`archived-${proj.id}`}
                      onClick={() => setShowArchived((m) => ({ ...m, [proj.id]: !m[proj.id] }))}
                    >
                      <Archive size={14} aria-hidden />
                      {archivedOpen ? "Hide archived" : "Show archived"} ({archived.length})
                    </button>
                  )}
                  {archivedOpen && archived.length > 0 && (
                    <div className="day-group archived" id={`archived-${proj.id}`}>
                      <div className="day-label">Archived</div>
                      <ul>{archived.map(row)}</ul>
                    </div>
                  )}
                </div>
              )}
            </div>
          );
        })}
        {p.hosts}
      </div>
      {menu && (
        <SessionMenu
          session={menu.s}
          at={menu.at}
          onClose={closeMenu}
          onRename={() => setRenaming(menu.s.id)}
          onArchive={(a) => void archive(menu.s, a)}
          onDelete={() => p.onDelete(menu.s)}
        />
      )}

      {projMenu && (
        <ProjectMenu
          project={projMenu.p}
          at={projMenu.at}
          onClose={closeProjMenu}
          onRename={() => setRenamingProject(projMenu.p.id)}
          onRemove={() => p.onRemoveProject?.(projMenu.p)}
          onArchivedWorktrees={workspaces && projMenu.p.workspace ? () => setArchivedOf(projMenu.p) : undefined}
        />
      )}
      {archivedOf && <ArchivedWorktrees project={archivedOf} onClose={() => setArchivedOf(undefined)} />}

      <div className="sidebar-bottom">
        {p.onSchedules && (
          <button type="button" className={`side-btn${p.schedulesOpen ? " selected" : ""}`} onClick={p.onSchedules} aria-current={p.schedulesOpen ? "page" : undefined}>
            <CalendarClock size={16} aria-hidden /> Schedules
          </button>
        )}
        {p.onUsage && (
          <button type="button" className={`side-btn${p.usageOpen ? " selected" : ""}`} onClick={p.onUsage} aria-current={p.usageOpen ? "page" : undefined}>
            <BarChart3 size={16} aria-hidden /> Usage
          </button>
        )}
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

function SessionRow({
  s,
  marker: m,
  selected,
  renaming,
  menuOpen,
  onSelect,
  onRenameStart,
  onRenameEnd,
  onRename,
  onDelete,
  onMenu,
}: {
  s: Session;
  marker: Marker;
  selected: boolean;
  renaming: boolean;
  menuOpen: boolean;
  onSelect(): void;
  onRenameStart(): void;
  onRenameEnd(): void;
  onRename(title: string): Promise<string | undefined>;
  onDelete(): void;
  onMenu(at: MenuAnchor): void;
}) {
  const rowBtn = useRef<HTMLButtonElement>(null);
  const title = revealInvisible(s.title || "Untitled session");
  if (renaming) {
    return (
      <li className="session-item">
        <InlineTitle
          className="in-sidebar"
          value={s.title}
          label={`Rename ${title}`}
          onSave={onRename}
          onDone={() => {
            onRenameEnd();
            requestAnimationFrame(() => rowBtn.current?.focus());
          }}
        />
      </li>
    );
  }
  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "F2") {
      e.preventDefault();
      e.stopPropagation(); // rename here, not in the header
      onRenameStart();
    } else if (e.key === "Delete") {
      e.preventDefault();
      onDelete();
    } else if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      e.preventDefault();
      const r = e.currentTarget.getBoundingClientRect();
      onMenu({ x: r.left + 24, y: r.bottom, returnTo: e.currentTarget });
    }
  };
  const onContext = (e: MouseEvent<HTMLElement>) => {
    e.preventDefault();
    onMenu({ x: e.clientX, y: e.clientY, returnTo: rowBtn.current });
  };
  return (
    <li className={`session-item${selected ? " selected" : ""}${s.archived ? " is-archived" : ""}`} onContextMenu={onContext}>
      <button
        ref={rowBtn}
        type="button"
        className={`session-row${selected ? " selected" : ""}`}
        aria-current={selected ? "page" : undefined}
        aria-keyshortcuts="F2 Delete Shift+F10"
        data-session-id={s.id}
        onClick={onSelect}
        onKeyDown={onKey}
      >
        <span className="ellipsis">{title}</span>
        {s.imported_from && <SourceBadge from={s.imported_from} />}
        {m && (
          <span className={`marker marker-${m}`} title={MARKER_TIP[m]}>
            <span className="sr-only">{MARKER_LABEL[m]}</span>
          </span>
        )}
      </button>
      <button
        type="button"
        className="icon-btn session-more"
        aria-label={`Actions for ${title}`}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        title={menuOpen ? undefined : "Rename, archive or delete"} // the tooltip must not cover the open menu
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          onMenu({ x: r.left, y: r.bottom + 2, returnTo: e.currentTarget });
        }}
      >
        <Ellipsis size={16} />
      </button>
    </li>
  );
}
