// The small source badge on an imported session (docs/ARCHITECTURE.md
// §History): the agent it came from ("Claude Code") for an agent's own
// history, "Imported" for a bundle; the tooltip holds the whole origin. One
// badge for the sidebar, the session header and the search results.
import "./history.css";

/**
 * The agent named by an imported_from of history.SourceLabel's shape
 * ("Claude Code 2.1.197: /home/me/.claude/…", the version optional);
 * "Imported" for anything else (a bundle's file name).
 */
export function importedSource(from: string): string {
  const i = from.indexOf(": ");
  const head = i > 0 ? from.slice(0, i) : "";
  if (!head || /[/\\]/.test(head)) return "Imported";
  return head.replace(/\s+v?\d[\w.+-]*$/, "") || "Imported";
}

export function SourceBadge({ from, note = "read-only" }: { from: string; note?: string }) {
  return (
    <span className="chip chip-imported" title={`Imported from ${from}: ${note}`}>
      {importedSource(from)}
    </span>
  );
}
