// A comment being written in the Review view outlives a change of layout
// (docs/ARCHITECTURE.md §Review): the window narrowed from side by side to
// unified, or widened back, rebuilds the rows and their editors.
// ReviewView.test.tsx: and a look at another file.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ReviewComment } from "../../contract/wire.gen";
import type { ReviewFileDiff } from "../../transport/api";
import { ReviewDiff, type CommentActions } from "./ReviewDiff";
import { useCommentDrafts } from "./useCommentDrafts";

/** The diff as the view holds it: the drafts kept above it. */
function Diff(p: { file: ReviewFileDiff; comments: ReviewComment[]; split?: boolean; actions: CommentActions }) {
  const drafts = useCommentDrafts();
  return <ReviewDiff file={p.file} comments={p.comments} split={!!p.split} actions={p.actions} drafts={drafts} />;
}

const file = { path: "a.go", action: "modified", diff: "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n" };
const draft: ReviewComment = { id: "rvc_1", workspace_id: "wsp_x", path: "a.go", side: "new", line: 2, quote: "new", text: "first words", state: "draft", created_at: "", updated_at: "" } as ReviewComment;
const actions = (): CommentActions => ({ add: vi.fn(async () => undefined), edit: vi.fn(async () => undefined), remove: vi.fn(async () => undefined) });

describe("a comment being written", () => {
  it("keeps a new comment's text when side by side turns unified and back", () => {
    const a = actions();
    const { rerender } = render(<Diff file={file} comments={[]} split actions={a} />);
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 2" }));
    fireEvent.change(screen.getByLabelText("Comment"), { target: { value: "half a thought" } });
    rerender(<Diff file={file} comments={[]} actions={a} />);
    expect((screen.getByLabelText("Comment") as HTMLTextAreaElement).value).toBe("half a thought");
    rerender(<Diff file={file} comments={[]} split actions={a} />);
    expect((screen.getByLabelText("Comment") as HTMLTextAreaElement).value).toBe("half a thought");
    // Cancel forgets it: the next comment on that line starts empty.
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 2" }));
    expect((screen.getByLabelText("Comment") as HTMLTextAreaElement).value).toBe("");
  });

  it("keeps an edit in progress too", () => {
    const a = actions();
    const { rerender } = render(<Diff file={file} comments={[draft]} split actions={a} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.change(screen.getByLabelText("Comment"), { target: { value: "first words, then more" } });
    rerender(<Diff file={file} comments={[draft]} actions={a} />);
    expect((screen.getByLabelText("Comment") as HTMLTextAreaElement).value).toBe("first words, then more");
  });
});
