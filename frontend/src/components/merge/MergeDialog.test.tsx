import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { MergePreview, MergeResult, WatchMessage } from "../../contract/wire.gen";
import { ApiError, type ApiClient } from "../../transport/api";
import type { Workspace } from "../../transport/types";
import type { WatchBus } from "../../store/bus";
import type { Workspaces } from "../workspaces/WorkspacesContext";
import { MergeDialog } from "./MergeDialog";

const w = { id: "wsp_a", project_id: "p1", kind: "worktree", state: "ready", path: "/r/.worktrees/a", branch: "hermesdesk/a", base: "main", created_at: "", updated_at: "" } as Workspace;
const clean: MergePreview = { workspace_id: "wsp_a", strategy: "squash", base: "main", clean: true, files: ["a.go"], message: "Better a\n\n- change a\n", base_ahead: 0 };
const conflicting: MergePreview = { ...clean, clean: false, conflicts: [{ path: "a.go", messages: ["CONFLICT (content): Merge conflict in a.go"] }], refusal: "the work conflicts with main in a.go" };

function setup(previews: MergePreview[], extra: Partial<ApiClient> = {}) {
  const listeners = new Set<(m: WatchMessage) => void>();
  const bus = { subscribe: (cb: (m: WatchMessage) => void) => (listeners.add(cb), () => listeners.delete(cb)) } as unknown as WatchBus;
  const queue = [...previews];
  const api = {
    mergePreview: vi.fn(async () => queue.shift() ?? clean),
    mergeWorkspace: vi.fn(async (): Promise<MergeResult> => ({ ...clean, old_base: "1111111111", new_base: "2222222222", backup: "refs/hermesdesk/backup/wsp_a/t", offer_archive: true })),
    resolveMerge: vi.fn(async () => ({ run: { run_id: "R9", session_id: "s1", user_message_id: "", assistant_message_id: "", status: "queued" }, preview: conflicting })),
    ...extra,
  } as unknown as ApiClient;
  const archive = vi.fn(async () => undefined);
  const ctx = { api, bus, byProject: {}, get: () => undefined, reload: async () => {}, archive, restore: async () => undefined } as unknown as Workspaces;
  const onClose = vi.fn();
  render(<MergeDialog workspace={w} ctx={ctx} onClose={onClose} />);
  const emit = (m: WatchMessage) => act(() => listeners.forEach((cb) => cb(m)));
  return { api, archive, onClose, emit };
}

describe("MergeDialog", () => {
  it("squash-merges with the edited message, then offers to archive", async () => {
    const { api, archive, onClose } = setup([clean]);
    const box = await screen.findByRole("textbox");
    expect((box as HTMLTextAreaElement).value).toBe("Better a\n\n- change a\n");
    expect(screen.getByText("Clean: merging into main changes 1 file.")).toBeTruthy();
    fireEvent.change(box, { target: { value: "Mine" } });
    fireEvent.click(screen.getByRole("button", { name: "Merge" }));
    await screen.findByText(/Archive this workspace\?/);
    expect(api.mergeWorkspace).toHaveBeenCalledWith("wsp_a", "squash", "Mine");
    expect(screen.getByText(/The old main is kept at refs\/hermesdesk\/backup\/wsp_a\/t/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(archive).toHaveBeenCalledWith(w);
  });

  it("a conflict offers Resolve with the agent and previews again when its run ends", async () => {
    const { api, emit } = setup([conflicting, clean]);
    await screen.findByText("Conflicts with main in 1 file.");
    expect(screen.getByText("CONFLICT (content): Merge conflict in a.go")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Merge" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Resolve with the agent" }));
    await screen.findByText(/The agent is resolving/);
    expect(api.resolveMerge).toHaveBeenCalledWith("wsp_a", "squash");
    emit({ seq: 1, type: "run.changed", run: { run_id: "R9", session_id: "s1", agent: "demo", status: "running" } as WatchMessage["run"] });
    expect(api.mergePreview).toHaveBeenCalledTimes(1);
    emit({ seq: 2, type: "run.changed", run: { run_id: "R9", session_id: "s1", agent: "demo", status: "completed" } as WatchMessage["run"] });
    await screen.findByText("Clean: merging into main changes 1 file.");
    expect(api.mergePreview).toHaveBeenCalledTimes(2);
  });

  it("a strategy asks the preview again; rebase needs no message", async () => {
    const { api } = setup([clean, { ...clean, strategy: "rebase", message: "" }]);
    await screen.findByRole("textbox");
    fireEvent.click(screen.getByLabelText("Rebase"));
    await waitFor(() => expect(api.mergePreview).toHaveBeenLastCalledWith("wsp_a", "rebase"));
    await waitFor(() => expect(screen.queryByRole("textbox")).toBeNull());
    await waitFor(() => expect((screen.getByRole("button", { name: "Merge" }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("says the sentence when gh is missing", async () => {
    setup([clean], { openPullRequest: vi.fn(async () => Promise.reject(new ApiError(409, "conflict", "the GitHub CLI (gh) is not installed, so Hermes Desk cannot open a pull request"))) } as Partial<ApiClient>);
    await screen.findByRole("textbox");
    fireEvent.click(screen.getByRole("button", { name: "Create pull request" }));
    expect((await screen.findByRole("alert")).textContent).toContain("the GitHub CLI (gh) is not installed");
  });
});
