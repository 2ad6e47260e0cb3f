// A worktree's setup script output while it runs (docs/ARCHITECTURE.md
// §Workspaces, "Setup"): each workspace.changed carries its last 4 KiB, so
// this only shows what the list already holds; nothing is asked for.
import type { Workspace } from "../../transport/types";
import { revealInvisible } from "../../text/invisible";
import "./workspaces.css";

export function SetupOutput({ w }: { w: Workspace }) {
  if (w.setup_status !== "running" || !w.setup_output) return null;
  return (
    <details className="ws-setup">
      <summary>Setup output{w.setup_source ? ` (${w.setup_source})` : ""}</summary>
      <pre className="mono" aria-live="polite">
        {revealInvisible(w.setup_output)}
      </pre>
    </details>
  );
}
