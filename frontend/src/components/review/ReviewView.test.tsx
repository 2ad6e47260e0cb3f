// The Review view against a fake API: the file list, a comment on a
// clicked line, Send, Revert with its confirm and Undo, the viewed box.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Review, ReviewComment, Workspace } from "../../contract/wire.gen";
import { WatchBus } from "../../store/bus";
import type { ApiClient } from "../../transport/api";
import type { BusHandlers, Transport } from "../../transport/transport";
import ReviewView from "./ReviewView";

const w = { id: "wsp_x", project_id: "p", kind: "worktree", state: "ready", path: "/r/.worktrees/x", branch: "hermesdesk/x", base: "main", created_at: "", updated_at: "" } as Workspace;
const diff = "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n";

function fakeApi() {
  let comments: ReviewComment[] = [];
  const review = (): Review => ({
    workspace_id: "wsp_x",
    base: "main",
    merge_base: "abc",
    files: [
      { path: "a.go", status: "modified", added: 1, removed: 1, blob: "b1", viewed: false },
      { path: "new.txt", status: "added", added: 2, removed: 0, blob: "b2", viewed: true },
    ],
    comments,
  });
  const api = {
    review: vi.fn(async () => review()),
    reviewDiff: vi.fn(async (_id: string, path: string) => ({ path, action: "modified", diff, added: 1, removed: 1 })),
    markViewed: vi.fn(async () => ({})),
    addReviewComment: vi.fn(async (_id: string, c: { path: string; side: string; line: number; quote: string; text: string }) => {
      const made = { ...c, id: "rvc_1", workspace_id: "wsp_x", state: "draft", created_at: "", updated_at: "" } as ReviewComment;
      comments = [made];
      return made;
    }),
    editReviewComment: vi.fn(),
    deleteReviewComment: vi.fn(),
    sendReview: vi.fn(async () => {
      comments = comments.map((c) => ({ ...c, state: "sent", run_id: "run_1" }));
      return { run: { run_id: "run_1", session_id: "s", user_message_id: "", assistant_message_id: "", status: "queued" }, comments };
    }),
    revertFile: vi.fn(async () => ({ checkpoint: { id: "revert_1" }, files: [{ path: "a.go", action: "write" }] })),
    undoCheckpoint: vi.fn(async () => ({ files: [] })),
  };
  return api;
}

describe("ReviewView", () => {
  it("lists the files, comments on a clicked line, sends, reverts and undoes", async () => {
    const api = fakeApi();
    render(<ReviewView workspace={w} api={api as unknown as ApiClient} onClose={() => undefined} />);
    expect(await screen.findByRole("button", { name: "a.go" })).toBeTruthy();
    expect(screen.getByText(/2 files · 1 viewed · \+3 −1/)).toBeTruthy();
    expect((screen.getByLabelText("Viewed new.txt") as HTMLInputElement).checked).toBe(true);

    fireEvent.click(await screen.findByRole("button", { name: "Comment on line 2" }));
    fireEvent.change(screen.getByLabelText("Comment"), { target: { value: "why new?" } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await waitFor(() => expect(api.addReviewComment).toHaveBeenCalledWith("wsp_x", { path: "a.go", side: "new", line: 2, quote: "new", text: "why new?" }));
    expect(await screen.findByText("why new?")).toBeTruthy();

    const send = await screen.findByRole("button", { name: /Send 1 comment$/ });
    fireEvent.click(send);
    expect(await screen.findByText(/Sent 1 comment to the agent/)).toBeTruthy();
    expect(api.sendReview).toHaveBeenCalledWith("wsp_x");

    fireEvent.click(screen.getByRole("button", { name: /Revert/ }));
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Revert" }));
    expect(await screen.findByText(/Reverted a.go/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(api.undoCheckpoint).toHaveBeenCalledWith("revert_1"));

    fireEvent.click(screen.getByLabelText("Viewed a.go"));
    await waitFor(() => expect(api.markViewed).toHaveBeenCalledWith("wsp_x", "a.go", "b1", true));
  });
});

describe("ReviewView with the conflict radar", () => {
  it("marks the file another worktree changes, says on which lines and the merge order, and follows the bus", async () => {
    let h: BusHandlers | undefined;
    const t = { kind: "http", watchRun: () => () => {}, watchBus: (x: BusHandlers) => ((h = x), () => {}) } as unknown as Transport;
    const bus = new WatchBus(t);
    bus.start();
    const conflicts = (files: { path: string; hunks?: { start: number; end: number; a: string[]; b: string[]; a_lines?: { start: number; count: number }; b_lines?: { start: number; count: number } }[] }[]) => ({
      project_id: "p",
      overlaps: files.length ? [{ a: { workspace_id: "wsp_y", branch: "hermesdesk/fix-login" }, b: { workspace_id: "wsp_x", branch: "hermesdesk/x" }, files }] : [],
      order: ["wsp_y", "wsp_x"],
      checked_at: "",
    });
    act(() => h!.onMessage({ seq: 1, type: "snapshot", snapshot: { runs: [], sessions_version: 1, conflicts: [conflicts([{ path: "a.go", hunks: [{ start: 7, end: 11, a: ["theirs"], b: ["new"], a_lines: { start: 5, count: 1 }, b_lines: { start: 2, count: 1 } }] }])] } }));
    render(<ReviewView workspace={w} api={fakeApi() as unknown as ApiClient} bus={bus} onClose={() => undefined} />);
    expect(await screen.findByText("Also changed by fix-login: line 2")).toBeTruthy();
    expect(screen.getByText("Suggested merge order, fewest conflicts first: fix-login, then this one (x)")).toBeTruthy();
    expect(screen.getAllByLabelText("Another worktree changes this file too").length).toBe(1);
    expect(screen.getByRole("button", { name: "Comment on line 2" }).className).toContain("rv-overlap");
    expect(screen.getByRole("button", { name: "Comment on line 1" }).className).not.toContain("rv-overlap");
    // The overlap goes (conflicts.changed with none): so do the marks.
    act(() => h!.onMessage({ seq: 2, type: "conflicts.changed", conflicts: conflicts([]) }));
    expect(screen.queryByText(/Also changed by/)).toBeNull();
    expect(screen.queryByLabelText("Another worktree changes this file too")).toBeNull();
    expect(screen.getByRole("button", { name: "Comment on line 2" }).className).not.toContain("rv-overlap");
  });
});

describe("ReviewView and the keyboard", () => {
  it("takes the focus, keeps Tab inside, and gives it back to the Review button", async () => {
    const opener = document.createElement("button");
    opener.textContent = "Review";
    const behind = document.createElement("button");
    behind.textContent = "Behind";
    document.body.append(opener, behind);
    opener.focus();
    const { unmount } = render(<ReviewView workspace={w} api={fakeApi() as unknown as ApiClient} onClose={() => undefined} />);
    const dialog = screen.getByRole("dialog");
    expect(dialog.contains(document.activeElement)).toBe(true);
    await screen.findByRole("button", { name: "Comment on line 2" });
    // Tab from the last control comes round to the first, not to the page behind.
    const controls = [...dialog.querySelectorAll<HTMLElement>("button, input")].filter((el) => !el.hasAttribute("disabled"));
    controls[controls.length - 1]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: "Tab" });
    expect(document.activeElement).toBe(controls[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(controls[controls.length - 1]);
    // Focus that fell outside (what had it went away) comes back in on Tab.
    behind.focus();
    fireEvent.keyDown(behind, { key: "Tab" });
    expect(document.activeElement).toBe(controls[0]);
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
    behind.remove();
  });
});

describe("ReviewView and Esc", () => {
  it("closes the revert's confirm first, then the view", async () => {
    const onClose = vi.fn();
    render(<ReviewView workspace={w} api={fakeApi() as unknown as ApiClient} onClose={onClose} />);
    fireEvent.click(await screen.findByRole("button", { name: /Revert/ }));
    const confirm = screen.getByRole("alertdialog");
    expect(document.activeElement).toBe(within(confirm).getByRole("button", { name: "Cancel" }));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe("ReviewView and a comment being written", () => {
  it("keeps it, open on its line, while another file is looked at", async () => {
    render(<ReviewView workspace={w} api={fakeApi() as unknown as ApiClient} onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole("button", { name: "Comment on line 2" }));
    fireEvent.change(screen.getByLabelText("Comment"), { target: { value: "half a thought" } });
    fireEvent.click(screen.getByRole("button", { name: "new.txt" }));
    await waitFor(() => expect(screen.getByRole("region", { name: "Changes in new.txt" })).toBeTruthy());
    await waitFor(() => expect(screen.queryByLabelText("Comment")).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "a.go" }));
    await waitFor(() => expect((screen.getByLabelText("Comment") as HTMLTextAreaElement).value).toBe("half a thought"));
  });
});
