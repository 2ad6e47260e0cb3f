// The comments being written in the Review view (docs/ARCHITECTURE.md
// §Review), kept by the view and not by the editors: the window going from
// side by side to unified rebuilds the diff's rows and their editors, and
// another file's diff replaces this one — a half-written comment must
// outlive both.
import { useCallback, useMemo, useState } from "react";
import type { LineTarget } from "./ReviewDiff";

export interface CommentDrafts {
  /** The line whose new comment is being written (in any file). */
  open?: LineTarget;
  setOpen(t: LineTarget | undefined): void;
  /** By key: "new <path> <side> <line>" or "edit <comment id>". */
  has(key: string): boolean;
  text(key: string, initial: string): string;
  set(key: string, text: string): void;
  done(key: string): void;
}

export const newKey = (t: LineTarget) => `new ${t.path} ${t.side} ${t.line}`;
export const editKey = (id: string) => `edit ${id}`;

export function useCommentDrafts(): CommentDrafts {
  const [open, setOpen] = useState<LineTarget>();
  const [writing, setWriting] = useState<Record<string, string>>({});
  const set = useCallback((key: string, text: string) => setWriting((w) => ({ ...w, [key]: text })), []);
  const done = useCallback((key: string) => setWriting(({ [key]: _, ...rest }) => rest), []);
  return useMemo(
    () => ({ open, setOpen, has: (key) => key in writing, text: (key, initial) => writing[key] ?? initial, set, done }),
    [open, writing, set, done],
  );
}
