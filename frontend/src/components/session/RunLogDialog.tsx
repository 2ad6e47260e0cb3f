import { useEffect, useState } from "react";
import type { ApiClient } from "../../transport/api";
import { CopyButton } from "../common/copy";
import { Dialog } from "../common/Dialog";
import { causeText } from "../common/bannerError";

type Api = Pick<ApiClient, "runLog">;

/**
 * "Open log" on an error: the end of the run's log (the shim's and the
 * agent's diagnostics), read through the API so the browser and the window
 * show the same thing and no file path leaves the data dir.
 */
export function RunLogDialog({ api, runId, onClose }: { api: Api; runId: string; onClose(): void }) {
  const [log, setLog] = useState<string>();
  const [err, setErr] = useState<string>();
  useEffect(() => {
    let live = true;
    api.runLog(runId).then(
      (r) => live && setLog(r.log),
      (e: unknown) => live && setErr(causeText(e)),
    );
    return () => {
      live = false;
    };
  }, [api, runId]);
  return (
    <Dialog title="Run log" onClose={onClose} wide>
      {err && <p role="alert">The log could not be read: {err}</p>}
      {log === undefined && !err && <p className="quiet">Reading the log…</p>}
      {log === "" && <p className="quiet">This run wrote no log.</p>}
      {log && (
        <>
          <pre className="mono run-log" tabIndex={0} aria-label="The end of the run's log">{log}</pre>
          <CopyButton text={log} what="Log" />
        </>
      )}
    </Dialog>
  );
}
