import type { ReactNode } from "react";
import { Sidebar } from "../components/sidebar/Sidebar";
import type { Project, Session } from "../transport/types";
import type { Backend } from "./useBackend";
import type { Layout } from "./useLayout";
import type { Navigation } from "./useNavigation";

/** The sidebar as the shell wires it: every choice made there closes the narrow overlay. */
export function ShellSidebar(p: {
  b: Backend;
  nav: Navigation;
  layout: Layout;
  isUnread(s: Session): boolean;
  onRename(s: Session, title: string): Promise<string | undefined>;
  onArchive(s: Session, archived: boolean): Promise<void>;
  onDelete(s: Session): void;
  onRenameProject(p: Project, name: string): Promise<string | undefined>;
  onRemoveProject(p: Project): void;
  onAddProject(): void;
  /** Other hosts' projects, below this computer's (components/hosts). */
  hosts?: ReactNode;
}) {
  const { b, nav, layout } = p;
  // A choice in the overlay closes it, then acts.
  const closing =
    <A extends unknown[]>(f: (...a: A) => void) =>
    (...a: A) => {
      layout.closeOverlay();
      f(...a);
    };
  return (
    <Sidebar
      overlay={layout.narrow}
      projects={b.projects}
      sessions={b.sessions}
      active={b.active}
      selectedProject={nav.projectId}
      selectedSession={nav.session?.id}
      isUnread={p.isUnread}
      onSelectProject={closing(nav.selectProject)}
      onSelectSession={closing((s: Session) => nav.selectSession(s))}
      onRename={p.onRename}
      onArchive={p.onArchive}
      onDelete={p.onDelete}
      onRenameProject={p.onRenameProject}
      onRemoveProject={p.onRemoveProject}
      onNewSession={closing(nav.newSession)}
      onAddProject={closing(p.onAddProject)}
      onSettings={closing(() => nav.setDialog("settings"))}
      onSchedules={closing(nav.openSchedules)}
      schedulesOpen={nav.schedules}
      onUsage={closing(nav.openUsage)}
      usageOpen={nav.usageOpen}
      onCollapse={layout.collapseSidebar}
      width={layout.width}
      onWidth={layout.setWidth}
      connected={b.conn === "connected"}
      hosts={p.hosts}
    />
  );
}
