import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Project, RunInfo, Session } from "../../transport/types";
import { Sidebar, sessionMarker } from "./Sidebar";

// Imported sessions in the sidebar (issue 23 item 7): a badge, never a
// running or needs-you marker, and the Imported place (no folder) offers
// no new session.
const mine: Project = { id: "prj_1", name: "Website", workspace: "/home/me/website" };
const place: Project = { id: "prj_imported", name: "Imported", workspace: "" };
const imported = { id: "ses_i", project_id: "prj_imported", title: "Brought along", agent: "demo", imported_from: "a.hdbundle.jsonl" } as Session;
const waiting = { id: "r", session_id: "ses_i", status: "awaiting_approval", last_seq: 2, terminal: false } as RunInfo;

describe("imported sessions in the sidebar", () => {
  it("carry a badge and no live marker", () => {
    expect(sessionMarker(imported, [waiting], false)).toBeUndefined();
    render(
      <Sidebar
        projects={[mine, place]}
        sessions={{ prj_1: [], prj_imported: [imported] }}
        active={[waiting]}
        isUnread={() => false}
        onSelectProject={() => {}}
        onSelectSession={() => {}}
        onRename={async () => undefined}
        onArchive={() => {}}
        onDelete={() => {}}
        onNewSession={() => {}}
        onAddProject={() => {}}
        onSettings={() => {}}
        onCollapse={() => {}}
        width={260}
        onWidth={() => {}}
        connected
      />,
    );
    const row = document.querySelector('[data-session-id="ses_i"]')!;
    expect(row.textContent).toContain("Imported");
    expect(row.querySelector(".marker")).toBeNull();
    expect(screen.getByRole("button", { name: "New session in Website" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "New session in Imported" })).toBeNull();
  });
});
