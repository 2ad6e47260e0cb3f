import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiClient } from "../../transport/api";
import { NewSession } from "../composer/NewSession";
import type { FolderActions } from "./FolderMissing";

const gone = { id: "p1", name: "proj", workspace: "/home/me/proj", folder_missing: true };

function actions(over: Partial<FolderActions> = {}): FolderActions {
  return { canPick: true, locate: vi.fn(async () => undefined), remove: vi.fn(), ...over };
}

// Issue 23.12: with the project folder moved away, the session says the
// folder is missing before anything is sent, and offers Locate… and Remove.
describe("a project whose folder is missing", () => {
  it("says so in a new session, sends nothing, and offers Locate… and Remove project", async () => {
    const onStart = vi.fn(async () => true);
    const a = actions();
    render(<NewSession project={gone} agents={[{ name: "command", installed: true } as never]} onStart={onStart} onRecheck={() => {}} folder={a} />);
    expect(screen.getByRole("alert").textContent).toMatch(/folder of proj is missing/);
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole("button", { name: "Locate…" }));
    expect(a.locate).toHaveBeenCalledWith(gone, undefined);
    await userEvent.click(screen.getByRole("button", { name: "Remove project" }));
    expect(a.remove).toHaveBeenCalledWith(gone);
    expect(onStart).not.toHaveBeenCalled();
  });

  it("takes a typed path where there is no native folder chooser, and says why it was refused", async () => {
    const locate = vi.fn(async () => "that folder is already the project \"x\"");
    render(<NewSession project={gone} agents={[]} onStart={vi.fn()} onRecheck={() => {}} folder={actions({ canPick: false, locate })} />);
    await userEvent.click(screen.getByRole("button", { name: "Locate…" }));
    await userEvent.type(screen.getByLabelText("Where the folder is now"), "/home/me/moved{Enter}");
    expect(locate).toHaveBeenCalledWith(gone, "/home/me/moved");
    expect(await screen.findByText(/already the project/)).toBeTruthy();
  });

  it("the session view shows the banner when the backend refuses a message with folder_missing", async () => {
    const { SessionView } = await import("../session/SessionView");
    const { RunStore } = await import("../../store/runStore");
    const api = new ApiClient(async (m, p) => {
      if (p === "/api/sessions/ses_1") return { status: 200, body: JSON.stringify({ id: "ses_1", project_id: "p1", title: "t", agent: "command", messages: [] }) };
      if (m === "POST" && p === "/api/runs") return { status: 409, body: JSON.stringify({ error: { code: "folder_missing", message: "the folder of the project \"proj\" is missing" } }) };
      return { status: 404, body: "{}" };
    });
    const t = { kind: "http" as const, api, watchRun: () => () => {} };
    const onChanged = vi.fn();
    render(
      <SessionView t={t} runs={new RunStore(t, { schedule: (cb) => cb() })} session={{ id: "ses_1", project_id: "p1", title: "t", agent: "command" }}
        project={{ ...gone, folder_missing: false }} folder={actions()} inspectorOpen={false} onInspector={() => {}} onChanged={onChanged}
        onSeen={() => {}} onRename={async () => undefined} />,
    );
    await screen.findByText(/Say what you want/);
    await userEvent.type(screen.getByLabelText("Message"), "hello{Enter}");
    expect(await screen.findByRole("button", { name: "Locate…" })).toBeTruthy();
    expect(onChanged).toHaveBeenCalled();
  });
});
