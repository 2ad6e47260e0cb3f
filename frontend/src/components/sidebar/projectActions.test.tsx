import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../transport/api";
import type { Project, RunInfo, Session } from "../../transport/types";
import { RemoveProjectDialog } from "./ProjectActions";
import { Sidebar, type SidebarProps } from "./Sidebar";

const proj: Project = { id: "prj_1", name: "Website", workspace: "/home/me/website" };
const gone: Project = { id: "prj_2", name: "Old", workspace: "/home/me/old", folder_missing: true };
const ses: Session = { id: "ses_1", project_id: "prj_1", title: "Fix the build", agent: "demo" } as Session;

function sidebar(over: Partial<SidebarProps> = {}) {
  const p: SidebarProps = {
    projects: [proj, gone],
    sessions: { prj_1: [ses], prj_2: [] },
    active: [] as RunInfo[],
    isUnread: () => false,
    onSelectProject: () => {},
    onSelectSession: () => {},
    onRename: async () => undefined,
    onArchive: () => {},
    onDelete: () => {},
    onRenameProject: async () => undefined,
    onRemoveProject: () => {},
    onNewSession: () => {},
    onAddProject: () => {},
    onSettings: () => {},
    onCollapse: () => {},
    width: 260,
    onWidth: () => {},
    connected: true,
    ...over,
  };
  return render(<Sidebar {...p} />);
}

describe("project actions in the sidebar", () => {
  it("renames a project from its menu", async () => {
    const user = userEvent.setup();
    const onRenameProject = vi.fn(async () => undefined);
    sidebar({ onRenameProject });
    await user.click(screen.getByRole("button", { name: "Actions for the project Website" }));
    await user.click(screen.getByRole("menuitem", { name: /Rename/ }));
    const input = screen.getByRole("textbox", { name: "Project name" });
    await user.clear(input);
    await user.type(input, "Marketing site{Enter}");
    expect(onRenameProject).toHaveBeenCalledWith(proj, "Marketing site");
    await waitFor(() => expect(screen.queryByRole("textbox", { name: "Project name" })).toBeNull());
  });

  it("keeps the editor open with the reason when a rename is refused", async () => {
    const user = userEvent.setup();
    sidebar({ onRenameProject: async () => "name must be one line" });
    await user.click(screen.getByRole("button", { name: "Actions for the project Website" }));
    await user.click(screen.getByRole("menuitem", { name: /Rename/ }));
    await user.type(screen.getByRole("textbox", { name: "Project name" }), "x{Enter}");
    expect((await screen.findByRole("alert")).textContent).toBe("name must be one line");
  });

  it("asks to remove a project from its menu, by keyboard too", async () => {
    const user = userEvent.setup();
    const onRemoveProject = vi.fn();
    sidebar({ onRemoveProject });
    screen.getByRole("button", { name: "Actions for the project Website" }).focus();
    await user.keyboard("{Enter}");
    expect(document.activeElement?.textContent).toContain("Rename");
    await user.keyboard("{ArrowDown}{Enter}");
    expect(onRemoveProject).toHaveBeenCalledWith(proj);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("flags a project whose folder is gone", () => {
    sidebar();
    const rows = screen.getAllByRole("button", { expanded: true }).filter((b) => b.classList.contains("project-name"));
    expect(rows[0]!.textContent).not.toContain("Folder missing");
    expect(rows[1]!.textContent).toContain("Folder missing");
    expect(rows[1]!.title).toBe("/home/me/old no longer exists");
  });

  it("gives the sidebar's dots a legend and keeps the tooltip off an open menu", async () => {
    const user = userEvent.setup();
    const run = { id: "run_1", session_id: "ses_1", status: "awaiting_approval" } as RunInfo;
    sidebar({ active: [run] });
    expect(screen.getByTitle("Needs you: the agent is waiting for your answer")).toBeTruthy();
    const more = screen.getByRole("button", { name: "Actions for Fix the build" });
    expect(more.title).toBe("Rename, archive or delete");
    await user.click(more);
    expect(more.hasAttribute("title")).toBe(false);
  });
});

describe("RemoveProjectDialog", () => {
  it("says files stay on disk and removes on confirm", async () => {
    const user = userEvent.setup();
    const onRemove = vi.fn(async () => {});
    const onClose = vi.fn();
    render(<RemoveProjectDialog project={proj} sessions={3} onRemove={onRemove} onClose={onClose} />);
    expect(screen.getByText(/Its 3 sessions, with their messages and run history, are removed/)).toBeTruthy();
    expect(screen.getByText(/and its files are not touched/).textContent).toContain("/home/me/website");
    await user.click(screen.getByRole("button", { name: "Remove" }));
    expect(onRemove).toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it("explains a refusal while an agent runs", async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const refuse = async () => {
      throw new ApiError(409, "conflict", "a session of this project has a running agent; stop it first");
    };
    render(<RemoveProjectDialog project={proj} sessions={1} onRemove={refuse} onClose={onClose} />);
    await user.click(screen.getByRole("button", { name: "Remove" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot remove it yet: a session of this project has a running agent; stop it first.");
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
