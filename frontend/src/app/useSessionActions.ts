import { useCallback, type RefObject } from "react";
import { baseName } from "../components/composer/Attachments";
import { causeText } from "../components/common/bannerError";
import type { SessionHandle } from "../components/session/SessionView";
import { requestId } from "../store/ids";
import { ApiError, type WorkspaceWhere } from "../transport/api";
import type { Transport } from "../transport/transport";
import type { Session } from "../transport/types";
import type { Backend } from "./useBackend";
import type { Navigation } from "./useNavigation";

/** A new session's title, numbered when the project has one by that name ("… (2)"). */
export function uniqueTitle(title: string, taken: string[]): string {
  if (!taken.includes(title)) return title;
  let n = 2;
  while (taken.includes(`${title} (${n})`)) n++;
  return `${title} (${n})`;
}

/**
 * What the shell does to sessions: start one with its first message,
 * rename, archive, delete, stop its runs (the delete dialog's Stop).
 */
export function useSessionActions(
  t: Transport,
  b: Backend,
  nav: Navigation,
  opts: { composer: RefObject<SessionHandle | null>; note(text: string): void; forgetSeen(id: string): void },
) {
  const { project, sessionId, selectSession, clearSession } = nav;
  const { composer, note, forgetSeen } = opts;
  const startSession = useCallback(
    async (agent: string, text: string, attachments: string[] = [], where?: WorkspaceWhere): Promise<boolean> => {
      if (!project) return false;
      try {
        const first = text.split("\n")[0] || (attachments[0] ? baseName(attachments[0]) : "");
        const title = uniqueTitle(first.slice(0, 60), (b.sessions[project.id] ?? []).map((x) => x.title ?? ""));
        const s = await t.api.createSession({ project_id: project.id, agent, title, ...where });
        await t.api.startRun({ session_id: s.id, message: text, client_request_id: requestId(), ...(attachments.length > 0 ? { attachments } : {}) });
        await b.refresh();
        selectSession(s);
        requestAnimationFrame(() => composer.current?.focus());
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.code === "folder_missing") {
          // The folder went since the list was read: the page says so (FolderMissing).
          void b.refresh();
          return false;
        }
        note(causeText(e));
        return false;
      }
    },
    [t, project, b, selectSession, composer, note],
  );

  const renameSession = useCallback(
    async (s: Session, title: string): Promise<string | undefined> => {
      try {
        const u = await t.api.updateSession(s.id, { title });
        b.putSession(u && typeof u === "object" && u.id ? u : { ...s, title });
        return undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  const archiveSession = useCallback(
    async (s: Session, archived: boolean) => {
      try {
        const u = await t.api.updateSession(s.id, { archived });
        b.putSession(u && typeof u === "object" && u.id ? u : { ...s, archived });
      } catch (e) {
        note(causeText(e));
      }
    },
    [t, b, note],
  );

  const deleteSession = useCallback(
    async (s: Session) => {
      await t.api.deleteSession(s.id); // a 409 (run active) reaches the dialog
      b.dropSession(s.id);
      if (s.id === sessionId) clearSession();
      forgetSeen(s.id);
      void b.refresh();
    },
    [t, b, sessionId, clearSession, forgetSeen],
  );

  const stopSessionRuns = useCallback(
    async (s: Session): Promise<string | undefined> => {
      try {
        const runs = await t.api.listRuns({ status: "active", session_id: s.id });
        const rs = await Promise.all(runs.map((r) => t.api.cancel(r.id)));
        void b.refreshActive();
        const refused = rs.find((r) => !r.accepted && r.status !== "not-active");
        return refused ? refused.message || "The agent did not accept the stop." : undefined;
      } catch (e) {
        return causeText(e);
      }
    },
    [t, b],
  );

  return { startSession, renameSession, archiveSession, deleteSession, stopSessionRuns };
}
