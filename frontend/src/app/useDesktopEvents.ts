import { useEffect, type RefObject } from "react";
import type { SessionHandle } from "../components/session/SessionView";
import type { Transport } from "../transport/transport";
import type { Session } from "../transport/types";
import { launchFolder } from "../transport/wails";
import { onWailsEvent } from "../transport/wailsRuntime";
import { droppedPaths, dropText, installGuards } from "./guard";
import type { Backend } from "./useBackend";

/** Wails event with the dropped files' paths (app/wails.go EventFilesDropped). */
export const FILES_DROPPED = "files:dropped";
/** Wails event with dropped regular files' paths, to attach (app/wails.go EventFilesAttach). */
export const FILES_ATTACH = "files:attach";

/**
 * What reaches the page from outside it: files dropped on the window, a
 * second launch, the tray or a notification opening a session.
 */
export function useDesktopEvents(
  t: Transport,
  b: Backend,
  o: {
    composer: RefObject<SessionHandle | null>;
    workspace?: string;
    note(text: string): void;
    addProjectPath(path: string): Promise<string | undefined>;
    selectSession(s: Session): void;
    newSession(): void;
    /** A session id not of this computer: a host's, opened if one has it (hosts/remote.ts). */
    openHostSession?(id: string): void;
  },
) {
  const { composer, workspace, note, addProjectPath, selectSession, newSession, openHostSession } = o;
  // Nothing dropped or clicked replaces the app (app/guard.ts). In the
  // Linux desktop window Go hands over the dropped paths (app/wails.go):
  // files are attached, folders go into the composer, relative to the
  // project when inside it (docs/ARCHITECTURE.md §Attachments).
  useEffect(
    () =>
      installGuards(window, (names, target) => {
        // The message box attaches what is dropped on it (components/composer/Attachments.tsx).
        if (t.kind !== "wails" && !(target instanceof Element && target.closest(".composer-box")))
          note(`To attach ${names.join(", ")}, drop ${names.length > 1 ? "them" : "it"} on the message box of a session.`);
      }),
    [t, note],
  );
  useEffect(
    () =>
      onWailsEvent(FILES_ATTACH, (payload) => {
        const paths = droppedPaths(payload);
        if (paths.length === 0) return;
        if (composer.current) {
          composer.current.attach(paths);
          // Then the person says what to do with them.
          composer.current.focus();
        } else note("Open a project first, then drop the files again to attach them.");
      }),
    [composer, note],
  );
  useEffect(
    () =>
      onWailsEvent(FILES_DROPPED, (payload) => {
        const paths = droppedPaths(payload);
        if (paths.length === 0) return;
        const text = dropText(paths, workspace);
        if (composer.current) composer.current.insert(text);
        else note(`Open a session to use ${text}`);
      }),
    [workspace, composer, note],
  );

  // `hermesdesk ~/src/project` while the app runs: reshow it (Go does) and
  // open that folder as a project (an existing project for it is reused).
  useEffect(
    () =>
      t.desktop?.onSecondInstance((launch) => {
        const folder = launchFolder(launch);
        if (!folder) return void b.refresh();
        void addProjectPath(folder).then((e) => e && note(`Could not open ${folder}: ${e}`));
      }),
    [t, b, addProjectPath, note],
  );

  // The tray's run items and a notification's click open a session here.
  useEffect(
    () =>
      t.desktop?.onOpenSession?.((id) => {
        const s = Object.values(b.sessions).flat().find((x) => x.id === id);
        if (s) selectSession(s);
        else if (id === "") newSession();
        else {
          void b.refresh();
          openHostSession?.(id);
        }
      }),
    [t, b, selectSession, newSession, openHostSession],
  );
}
