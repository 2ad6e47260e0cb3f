import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Checkpoint, CheckpointResult } from "../../contract/wire.gen";
import { ApiError } from "../../transport/api";
import type { Session } from "../../transport/types";
import { CheckpointsProvider, type CheckpointApi } from "./CheckpointsContext";
import { RunCheckpointBar } from "./RunCheckpointBar";

const runRec: Checkpoint = { id: "cp-run", kind: "run", state: "kept", session_id: "s1", turn_id: "turn1", run_id: "R", workspace: "/w", git_dir: "/w/.git", ref: "r", head: "abc", created_at: "2026-01-01T10:00:00Z" };
const forked = { id: "s2", project_id: "p1", title: "Fork of Refactor", agent: "demo", archived: false, workspace_id: "wsp_1", created_at: "", updated_at: "" } as Session;

function setup(forkSession: CheckpointApi["forkSession"], records: Checkpoint[] = [runRec]) {
  const openSession = vi.fn();
  const api: CheckpointApi = {
    sessionCheckpoints: vi.fn(async () => records),
    undoRun: vi.fn(async (): Promise<CheckpointResult> => ({ files: [] })),
    undoCheckpoint: vi.fn(async (): Promise<CheckpointResult> => ({ files: [] })),
    restoreTurn: vi.fn(async (): Promise<CheckpointResult> => ({ files: [] })),
    forkSession,
  };
  render(
    <CheckpointsProvider api={api} bus={{ subscribe: () => () => {} }} sessionId="s1" openSession={openSession}>
      <RunCheckpointBar runId="R" />
    </CheckpointsProvider>,
  );
  return { api, openSession };
}

describe("Fork from here", () => {
  it("forks from the turn beside Undo and Restore, then opens the new session", async () => {
    const fork = vi.fn(async () => forked);
    const { openSession } = setup(fork);
    await screen.findByRole("button", { name: /Undo this run/ });
    fireEvent.click(screen.getByRole("button", { name: /Fork from here/ }));
    await waitFor(() => expect(openSession).toHaveBeenCalledWith(forked));
    expect(fork).toHaveBeenCalledWith("s1", "turn1");
  });

  it("says the refusal's sentence and opens nothing", async () => {
    const refuse = new ApiError(409, "conflict", "this checkpoint was taken without the repository's commit");
    const { openSession } = setup(vi.fn(async () => Promise.reject(refuse)));
    fireEvent.click(await screen.findByRole("button", { name: /Fork from here/ }));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not fork: this checkpoint was taken without the repository's commit");
    expect(openSession).not.toHaveBeenCalled();
  });

  it("is not offered for a plain folder's checkpoint", async () => {
    setup(vi.fn(), [{ ...runRec, shadow: true, head: undefined }]);
    await screen.findByRole("button", { name: /Undo this run/ });
    expect(screen.queryByRole("button", { name: /Fork from here/ })).toBeNull();
  });
});
