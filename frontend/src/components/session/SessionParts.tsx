import { useCallback, useImperativeHandle, useRef, useSyncExternalStore, type ForwardedRef } from "react";
import type { RunStore } from "../../store/runStore";
import type { Transport } from "../../transport/transport";
import type { ComposerHandle } from "../composer/Composer";
import { ModelDialog } from "../settings/Dialogs";
import { Inspector } from "./Inspector";
import { RunLogDialog } from "./RunLogDialog";
import { controlNote, errText } from "./sessionText";
import type { SessionHandle } from "./SessionView";

/**
 * The handle the app holds on the open session (SessionHandle): the
 * composer's, plus Stop (as of the latest render, through stopRef) and
 * rename. Set in the commit that shows the title, so an F2 pressed right
 * after it appears is never lost.
 */
export function useSessionHandle(ref: ForwardedRef<SessionHandle>, setEditing: (on: boolean) => void) {
  const inner = useRef<ComposerHandle>(null);
  const stopRef = useRef(() => {});
  useImperativeHandle(
    ref,
    () => ({
      focus: () => inner.current?.focus(),
      insert: (x: string) => inner.current?.insert(x),
      attach: (paths: string[]) => inner.current?.attach(paths),
      stop: () => stopRef.current(),
      rename: () => setEditing(true),
    }),
    [setEditing],
  );
  return { inner, stopRef };
}

/** A passing note with its Dismiss (a Stop's word on queued follow-ups, a jump's). */
export function Note({ text, onDismiss }: { text: string; onDismiss(): void }) {
  return (
    <div className="jump-note" role="status">
      {text}
      <button type="button" className="btn btn-ghost" onClick={onDismiss}>Dismiss</button>
    </div>
  );
}

/** The inspector follows its run event by event (the timeline), not only its shape. */
export function LiveInspector({ runs, runId, ...rest }: { runs: RunStore; runId?: string } & Omit<Parameters<typeof Inspector>[0], "view">) {
  const subscribe = useCallback((cb: () => void) => (runId ? runs.subscribe(runId, cb) : () => {}), [runs, runId]);
  useSyncExternalStore(subscribe, () => (runId ? runs.version(runId) : 0));
  return <Inspector view={runId ? runs.view(runId) : undefined} {...rest} />;
}

/** A run's log (an error card's "Show log") and the running agent's model switch (/model). */
export function RunDialogs(p: { t: Transport; logOf?: string; closeLog(): void; modelOf?: string; model?: string; closeModel(): void }) {
  const { t, modelOf } = p;
  return (
    <>
      {p.logOf && <RunLogDialog api={t.api} runId={p.logOf} onClose={p.closeLog} />}
      {modelOf && (
        <ModelDialog
          current={p.model}
          onClose={p.closeModel}
          onSet={async (m) => {
            try {
              return controlNote(await t.api.setModel(modelOf, m));
            } catch (e) {
              return errText(e);
            }
          }}
        />
      )}
    </>
  );
}
