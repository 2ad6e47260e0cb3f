import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Checkpoint, CheckpointResult, WatchMessage } from "../../contract/wire.gen";
import { ApiError } from "../../transport/api";
import { CheckpointsProvider, type CheckpointApi } from "./CheckpointsContext";
import { RunCheckpointBar } from "./RunCheckpointBar";

const runRec: Checkpoint = { id: "cp-run", kind: "run", state: "kept", session_id: "s1", turn_id: "turn1", run_id: "R", workspace: "/w", git_dir: "/w/.git", ref: "r", created_at: "2026-01-01T10:00:00Z" };
const undoRec: Checkpoint = { ...runRec, id: "cp-undo", kind: "undo", run_id: undefined, target: "cp-run", files: ["hello.txt"], created_at: "2026-01-01T10:05:00Z" };

function setup(over: Partial<CheckpointApi> = {}, records: Checkpoint[] = [runRec]) {
  const listeners = new Set<(m: WatchMessage) => void>();
  const bus = { subscribe: (cb: (m: WatchMessage) => void) => (listeners.add(cb), () => listeners.delete(cb)) };
  const emit = (m: WatchMessage) => act(() => listeners.forEach((l) => l(m)));
  const api: CheckpointApi = {
    sessionCheckpoints: vi.fn(async () => records),
    undoRun: vi.fn(async (): Promise<CheckpointResult> => ({ checkpoint: undoRec, files: [{ path: "hello.txt", action: "remove" }] })),
    undoCheckpoint: vi.fn(async (): Promise<CheckpointResult> => ({ files: [{ path: "hello.txt", action: "write" }] })),
    restoreTurn: vi.fn(async (): Promise<CheckpointResult> => ({ files: [] })),
    ...over,
  };
  render(
    <CheckpointsProvider api={api} bus={bus} sessionId="s1">
      <RunCheckpointBar runId="R" />
    </CheckpointsProvider>,
  );
  return { api, emit };
}

describe("RunCheckpointBar", () => {
  it("offers nothing for a run without a checkpoint", async () => {
    const { api } = setup({}, []);
    await waitFor(() => expect(api.sessionCheckpoints).toHaveBeenCalledWith("s1"));
    expect(screen.queryByRole("button", { name: /Undo this run/ })).toBeNull();
  });

  it("undoes the run, says so in the transcript, then offers Redo of that undo", async () => {
    const { api } = setup();
    fireEvent.click(await screen.findByRole("button", { name: /Undo this run/ }));
    expect(await screen.findByText("Undo: 1 file changed.")).toBeTruthy();
    expect(api.undoRun).toHaveBeenCalledWith("R");
    expect(screen.getByText(/Undid this run's changes at .* \(1 file\)\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Redo/ }));
    await waitFor(() => expect(api.undoCheckpoint).toHaveBeenCalledWith("cp-undo"));
  });

  it("names the files when the undo is refused, and changes nothing", async () => {
    const refuse = new ApiError(409, "conflict", "nothing was changed: these files were changed since the run: hello.txt (edited since)");
    setup({ undoRun: vi.fn(async () => Promise.reject(refuse)) });
    fireEvent.click(await screen.findByRole("button", { name: /Undo this run/ }));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not undo: nothing was changed: these files were changed since the run: hello.txt (edited since)");
    expect(screen.getByRole("button", { name: /Undo this run/ })).toBeTruthy();
  });

  it("places an undo made elsewhere when the watch bus brings it", async () => {
    const { emit } = setup();
    await screen.findByRole("button", { name: /Undo this run/ });
    emit({ seq: 1, type: "checkpoint.changed", checkpoint: { ...undoRec, session_id: "other" } });
    expect(screen.queryByRole("button", { name: /Redo/ })).toBeNull();
    emit({ seq: 2, type: "checkpoint.changed", checkpoint: undoRec });
    expect(await screen.findByRole("button", { name: /Redo/ })).toBeTruthy();
    expect(screen.getByText(/Undid this run's changes/)).toBeTruthy();
  });

  it("previews a restore, keeps created files unless asked, then applies", async () => {
    const preview: CheckpointResult = { preview: true, files: [{ path: "a.txt", action: "write" }, { path: "new.txt", action: "keep", reason: "created since; kept" }] };
    const restoreTurn = vi.fn(async (_s: string, _t: string, o?: { preview?: boolean; removeCreated?: boolean }): Promise<CheckpointResult> =>
      o?.preview ? preview : { checkpoint: { ...runRec, id: "cp-rs", kind: "restore", run_id: undefined, target: "cp-run", created_at: "2026-01-01T10:06:00Z" }, files: [{ path: "a.txt", action: "write" }, { path: "new.txt", action: "remove" }] },
    );
    setup({ restoreTurn });
    fireEvent.click(await screen.findByRole("button", { name: "Restore files to before this message" }));
    const changing = await screen.findByRole("list", { name: "Files that will change" });
    expect(changing.textContent).toContain("a.txt: put back as it was");
    expect(screen.getByRole("list", { name: "Files created since" }).textContent).toBe("new.txt");
    expect(restoreTurn).toHaveBeenCalledWith("s1", "turn1", { preview: true });
    fireEvent.click(screen.getByLabelText("Also remove the files created since"));
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(await screen.findByText("Restore: 2 files changed.")).toBeTruthy();
    expect(restoreTurn).toHaveBeenLastCalledWith("s1", "turn1", { removeCreated: true });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByText(/Restored the files to before this message at/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Undo the restore" })).toBeTruthy();
  });
});

describe("the inspector's Checkpoint section", () => {
  it("offers the run's undo once the run has ended, and nothing without a checkpoint", async () => {
    const { Inspector } = await import("../session/Inspector");
    const { newRunView } = await import("../../store/model");
    const api: CheckpointApi = {
      sessionCheckpoints: vi.fn(async () => [runRec]),
      undoRun: vi.fn(),
      undoCheckpoint: vi.fn(),
      restoreTurn: vi.fn(),
    };
    const bus = { subscribe: () => () => {} };
    const view = (id: string, terminal: boolean) => ({ ...newRunView(id), terminal });
    const { rerender } = render(
      <CheckpointsProvider api={api} bus={bus} sessionId="s1">
        <Inspector view={view("R", true)} onClose={() => {}} />
      </CheckpointsProvider>,
    );
    const section = (await screen.findByRole("heading", { name: "Checkpoint" })).closest("section")!;
    expect(section.querySelector("button")?.textContent).toContain("Undo this run");
    for (const [id, terminal] of [["R", false], ["other", true]] as const) {
      rerender(
        <CheckpointsProvider api={api} bus={bus} sessionId="s1">
          <Inspector view={view(id, terminal)} onClose={() => {}} />
        </CheckpointsProvider>,
      );
      expect(screen.queryByRole("heading", { name: "Checkpoint" })).toBeNull();
    }
  });
});
