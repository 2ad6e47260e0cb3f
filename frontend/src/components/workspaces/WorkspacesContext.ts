// The window's one list of workspaces (docs/ARCHITECTURE.md §Workspaces):
// each project's list read once, then kept by `workspace.changed` on the
// store's one watch stream (a reconnect's snapshot reads it again). Nothing
// polls. Components read it through WorkspacesContext; without a provider
// (a test, a transport without workspaces) they show nothing.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { WatchBus } from "../../store/bus";
import { causeText } from "../common/bannerError";
import type { ApiClient } from "../../transport/api";
import type { Project, Workspace } from "../../transport/types";
import { WorkspaceDetails } from "./workspaceDetails";

export interface Workspaces {
  api: ApiClient;
  bus?: WatchBus;
  byProject: Record<string, Workspace[]>;
  get(id: string): Workspace | undefined;
  reload(projectId: string): Promise<void>;
  /** Resolves the refusal's sentence, or undefined when done. */
  archive(w: Workspace): Promise<string | undefined>;
  restore(w: Workspace): Promise<string | undefined>;
  /** Each shown workspace's detail, read once for all its chips. */
  details: WorkspaceDetails;
}

export const WorkspacesContext = createContext<Workspaces | null>(null);

export function useWorkspacesContext(): Workspaces | null {
  return useContext(WorkspacesContext);
}

/** Puts w in its project's list (replacing the one with its id). */
export function upsert(m: Record<string, Workspace[]>, w: Workspace): Record<string, Workspace[]> {
  const list = m[w.project_id] ?? [];
  const i = list.findIndex((x) => x.id === w.id);
  return { ...m, [w.project_id]: i < 0 ? [...list, w] : list.map((x, j) => (j === i ? w : x)) };
}

/**
 * host: the host whose workspaces these are (api bound to it, transport/host.ts
 * forHost); "" this computer's. The bus carries every host's workspace.changed,
 * tagged (service PublishRemote): each list keeps its own.
 */
export function useWorkspaces(api: ApiClient, bus: WatchBus | undefined, projects: Project[], host = ""): Workspaces {
  const [byProject, setByProject] = useState<Record<string, Workspace[]>>({});
  // The details read through the api of the moment: a host session's
  // transport is made anew (its label changed) and the cache stays.
  const apiNow = useRef(api);
  apiNow.current = api;
  const [details] = useState(() => new WorkspaceDetails((id) => apiNow.current.workspace(id)));
  useEffect(() => bus?.subscribe((m) => details.heard(m)), [bus, details]);
  const current = useRef(byProject);
  current.current = byProject;
  // Only projects with a folder have workspaces (the Imported place has none).
  const ids = projects.filter((p) => p.workspace).map((p) => p.id).join("\n");

  const reload = useCallback(
    async (projectId: string) => {
      try {
        const list = await api.listWorkspaces(projectId);
        setByProject((m) => ({ ...m, [projectId]: list }));
      } catch {
        // Workspaces unavailable (an older core, a test server): sessions still work in the folder.
      }
    },
    [api],
  );

  useEffect(() => {
    if (ids) for (const id of ids.split("\n")) void reload(id);
  }, [ids, reload]);

  useEffect(
    () =>
      bus?.subscribe((m) => {
        if (m.type === "workspace.changed" && m.workspace && (m.host ?? "") === host) {
          const w = m.workspace;
          setByProject((x) => upsert(x, w));
        } else if (ids && (m.type === "snapshot" || (host && m.type === "host.changed" && m.host_state?.host === host && m.host_state.reachable))) {
          // Connected again (this bus, or the host answers again): what changed meanwhile was not heard.
          for (const id of ids.split("\n")) void reload(id);
        }
      }),
    [bus, ids, reload, host],
  );

  const get = useCallback((id: string) => {
    for (const list of Object.values(current.current)) {
      const w = list.find((x) => x.id === id);
      if (w) return w;
    }
    return undefined;
  }, []);

  const act = useCallback(
    async (w: Workspace, f: (id: string) => Promise<Workspace>): Promise<string | undefined> => {
      try {
        const u = await f(w.id);
        if (u && u.id) setByProject((m) => upsert(m, u));
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [],
  );
  const archive = useCallback((w: Workspace) => act(w, (id) => api.archiveWorkspace(id)), [act, api]);
  const restore = useCallback((w: Workspace) => act(w, (id) => api.restoreWorkspace(id)), [act, api]);

  return useMemo(() => ({ api, bus, byProject, get, reload, archive, restore, details }), [api, bus, byProject, get, reload, archive, restore, details]);
}
