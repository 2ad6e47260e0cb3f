import { useCallback, useMemo } from "react";
import { causeText } from "../components/common/bannerError";
import type { FolderActions } from "../components/common/FolderMissing";
import { basename } from "../store/ids";
import type { Transport } from "../transport/transport";
import type { Project } from "../transport/types";
import type { Backend } from "./useBackend";
import type { Navigation } from "./useNavigation";

/**
 * What the shell does to projects: add one by its folder (typed or
 * picked), locate a missing folder, rename, remove. Each resolves the
 * sentence to show when refused (docs/ARCHITECTURE.md §Window).
 */
export function useProjects(t: Transport, b: Backend, nav: Navigation, opts: { note(text: string): void; askRemove(p: Project): void; hosts?(): boolean }) {
  const { openProject, setAdding, projectId, clearProject } = nav;
  const { note, askRemove, hosts } = opts;
  const addProjectPath = useCallback(
    async (path: string): Promise<string | undefined> => {
      try {
        const p = await t.api.createProject(basename(path), path);
        await b.refresh();
        openProject(p.id);
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b, openProject],
  );

  const pickFolder = useCallback(async (native = false) => {
    // With hosts followed, the page asks where first (components/hosts/NewProjectWhere.tsx).
    if (!t.desktop || (!native && (hosts?.() ?? false))) {
      setAdding(true);
      return;
    }
    try {
      const path = await t.desktop.pickFolder("Choose a project folder");
      if (path) {
        const e = await addProjectPath(path);
        if (e) note(e);
      }
    } catch {
      setAdding(true); // no native picker: fall back to typing the path
    }
  }, [t, addProjectPath, setAdding, note, hosts]);

  // Locate… and Remove for a project whose folder is gone (FolderMissing).
  const folder = useMemo<FolderActions>(
    () => ({
      canPick: !!t.desktop,
      locate: async (proj, typed) => {
        try {
          const path = typed ?? (await t.desktop?.pickFolder(`Where is the folder of ${proj.name} now?`));
          if (!path) return "";
          await t.api.updateProject(proj.id, { workspace: path });
          await b.refresh();
          return undefined;
        } catch (e) {
          return causeText(e);
        }
      },
      remove: (proj) => askRemove(proj),
    }),
    [t, b, askRemove],
  );

  const renameProject = useCallback(
    async (p: Project, name: string): Promise<string | undefined> => {
      try {
        await t.api.updateProject(p.id, { name });
        void b.refresh();
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  // Removing forgets the project and its sessions here; files on disk stay.
  const removeProject = useCallback(
    async (p: Project) => {
      await t.api.deleteProject(p.id); // a 409 (run active) reaches the dialog
      if (p.id === projectId) clearProject();
      void b.refresh();
    },
    [t, b, projectId, clearProject],
  );

  return { addProjectPath, pickFolder, folder, renameProject, removeProject };
}
