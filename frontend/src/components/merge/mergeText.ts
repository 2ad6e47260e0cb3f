// The Merge dialog's words (docs/ARCHITECTURE.md §Merge), pure so they
// are table-tested.
import type { MergePreview, MergeResult } from "../../contract/wire.gen";

export type Strategy = "squash" | "merge" | "rebase";

export const STRATEGIES: { value: Strategy; label: string; hint: string }[] = [
  { value: "squash", label: "Squash", hint: "one commit on the base, with the message below" },
  { value: "merge", label: "Merge commit", hint: "the workspace's commits kept, joined by a merge commit" },
  { value: "rebase", label: "Rebase", hint: "the workspace's commits replayed one by one on the base" },
];

/** One line saying what the preview found. */
export function previewLine(p: MergePreview): string {
  const files = `${p.files.length} ${p.files.length === 1 ? "file" : "files"}`;
  if (!p.clean) {
    const n = p.conflicts?.length ?? 0;
    return `Conflicts with ${p.base} in ${n} ${n === 1 ? "file" : "files"}.`;
  }
  if (p.refusal) return p.refusal;
  return `Clean: merging into ${p.base} changes ${files}${p.uncommitted ? " (uncommitted work included: it becomes a commit on the workspace's branch)" : ""}.`;
}

/** What the merge did, for the line above "Archive this workspace?". */
export function mergedLine(r: MergeResult): string {
  return `Merged into ${r.base}: ${r.old_base.slice(0, 8)} → ${r.new_base.slice(0, 8)}. The old ${r.base} is kept at ${r.backup}.`;
}

/** Whether Merge may be pressed. */
export function canMerge(p: MergePreview | undefined, message: string, strategy: Strategy): boolean {
  if (!p || !p.clean || p.refusal) return false;
  return strategy === "rebase" || message.trim() !== "";
}
