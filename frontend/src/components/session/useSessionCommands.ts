import { useMemo, useRef, type RefObject } from "react";
import { requestId } from "../../store/ids";
import { ApiError } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import type { Project, SessionDetail } from "../../transport/types";
import type { BlockActions } from "./BlockView";
import type { ComposerHandle } from "../composer/Composer";
import type { FolderActions } from "../common/FolderMissing";
import { controlNote, errText, queueNote } from "./sessionText";
import type { RunStatusView } from "./useRunStatus";

export interface SessionCommandDeps {
  sessionId: string;
  detail: SessionDetail | null;
  run: RunStatusView;
  composer: RefObject<ComposerHandle | null>;
  project?: Project;
  folder?: FolderActions;
  load(): Promise<void>;
  onChanged(): void;
  onOpenSettings?(): void;
  setErr(e: unknown): void;
  folderGone(): void;
  pinned(): void;
  stopNote(n: { runId: string; text: string }): void;
  openLog(runId: string): void;
}

/**
 * What the person does to the session's runs: send (a new run, a queued
 * follow-up or an answer), stop, and the cards' actions — approve, answer,
 * retry, drop or edit a queued follow-up, an error card's fixes.
 */
export function useSessionCommands(t: Transport, c: SessionCommandDeps) {
  const { run, sessionId } = c;
  const { latestId, newestId, active, asking } = run;
  // A queued follow-up is a run that has not started: cancelling it drops it.
  const dropQueued = async (runId: string): Promise<boolean> => {
    try {
      const note = controlNote(await t.api.cancel(runId));
      if (note) c.setErr(note);
      await c.load();
      c.onChanged();
      return !note;
    } catch (e) {
      c.setErr(e);
      return false;
    }
  };
  const dropRef = useRef(dropQueued);
  dropRef.current = dropQueued;
  // An error card's fixes, as of the latest render (errorFix.ts).
  const project = c.project;
  const fixRef = useRef<{ settings?(): void; locate?(): void }>({});
  fixRef.current = {
    settings: c.onOpenSettings,
    locate: project && c.folder ? () => void c.folder!.locate(project) : undefined,
  };
  // Retry sends the failed turn's message again, as a new turn.
  const retryRef = useRef(async (_runId: string) => {});
  retryRef.current = async (runId: string) => {
    const m = (c.detail?.messages ?? []).find((x) => x.role === "user" && x.run_id === runId);
    if (m) await sendRef.current(m.content, m.attachments);
    else c.setErr("The message of that turn is not available to send again.");
  };
  const composer = c.composer;
  const openLog = useRef(c.openLog);
  openLog.current = c.openLog;

  const actions = useMemo<BlockActions>(
    () => ({
      approve: async (runId, approvalId, optionId) => {
        try {
          return controlNote(await t.api.approve(runId, approvalId, optionId));
        } catch (e) {
          return errText(e);
        }
      },
      clarify: async (runId, clarifyId, answer) => {
        try {
          return controlNote(await t.api.clarify(runId, clarifyId, answer));
        } catch (e) {
          return errText(e);
        }
      },
      retry: (runId) => void retryRef.current(runId),
      openLog: (runId) => openLog.current(runId),
      cancelQueued: (runId) => void dropRef.current(runId),
      openSettings: () => fixRef.current.settings?.(),
      locateFolder: () => fixRef.current.locate?.(),
      editQueued: (runId, text) =>
        void dropRef.current(runId).then((ok) => {
          if (ok) composer.current?.insert(text);
        }),
    }),
    [t, composer],
  );

  const sendRef = useRef(async (_t: string, _a?: string[]) => false);
  const send = async (text: string, attachments: string[] = []): Promise<boolean> => {
    // An answer or a queued follow-up is text only: keep the chips for a new message.
    if (attachments.length > 0 && ((asking && latestId) || (active && newestId))) {
      c.setErr("Attachments go with a new message: send it when the agent is free.");
      return false;
    }
    if (asking && latestId) {
      const note = await actions.clarify(latestId, asking.clarifyId, text);
      if (note) c.setErr(note);
      return !note;
    }
    try {
      if (active && newestId) await t.api.queue(newestId, text, requestId());
      else
        await t.api.startRun({
          session_id: sessionId,
          message: text,
          client_request_id: requestId(),
          ...(attachments.length > 0 ? { attachments } : {}),
        });
      await c.load();
      c.pinned(); // show the message just sent, wherever the view was
      c.onChanged();
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === "folder_missing") {
        // The folder went since the list was read: the banner says it.
        c.folderGone();
        c.onChanged();
        return false;
      }
      c.setErr(e);
      return false;
    }
  };
  sendRef.current = send;

  const waiting = [...run.queuedSet].filter((id) => id !== latestId).length;
  const stop = async (force = false) => {
    if (!latestId) return;
    try {
      const r = await t.api.cancel(latestId, force);
      const note = controlNote(r);
      if (note) c.setErr(note);
      else if (waiting > 0) c.stopNote({ runId: latestId, text: `Stopping the run: ${queueNote(waiting)}.` });
    } catch (e) {
      c.setErr(e);
    }
  };
  return { actions, send, stop, waiting, fixes: fixRef };
}
