import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { HistoryImportResult, HistorySource } from "../../transport/types";
import { HistorySettings, importSummary } from "./HistorySettings";

function fakeApi(sources: HistorySource[]) {
  const calls: [string, boolean | undefined][] = [];
  return {
    calls,
    api: {
      historySources: async () => sources.map((s) => ({ ...s })),
      importHistory: async (source: string, mirror?: boolean): Promise<HistoryImportResult> => {
        calls.push([source, mirror]);
        const s = sources.find((x) => x.id === source)!;
        if (mirror !== undefined) s.mirror = mirror;
        return { source, mirror: s.mirror, imported: 2, updated: 0, already: 1, skipped: 0, failed: [{ file: "/h/bad.jsonl", reason: "cannot read" }] };
      },
    },
  };
}

const claude: HistorySource = { id: "claude", name: "Claude Code", root: "/h/.claude", sessions: 3, last_update: "2026-11-27T06:20:40Z", mirror: false };

describe("history settings", () => {
  it.each<[HistoryImportResult, string]>([
    [{ source: "x", mirror: false, imported: 0, updated: 0, already: 0, skipped: 0 }, "0 imported."],
    [{ source: "x", mirror: false, imported: 1, updated: 2, already: 3, skipped: 4, failed: [{ file: "f", reason: "r" }] },
      "1 imported, 2 updated, 3 already here, 4 with no finished conversation yet, 1 could not be read."],
  ])("summarises %j", (r, want) => {
    expect(importSummary(r)).toBe(want);
  });

  it("lists each source and imports it, then turns its mirror on", async () => {
    const { api, calls } = fakeApi([{ ...claude }]);
    render(<HistorySettings api={api} />);
    expect(await screen.findByText("Claude Code")).toBeTruthy();
    expect(screen.getByText(/3 sessions · last update/)).toBeTruthy();
    expect(screen.getByText("/h/.claude")).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Import" }));
    expect(await screen.findByText("2 imported, 1 already here, 1 could not be read.")).toBeTruthy();
    expect(screen.getByText("/h/bad.jsonl")).toBeTruthy();
    expect(calls).toEqual([["claude", undefined]]);

    const sw = screen.getByRole("switch") as HTMLInputElement;
    expect(sw.checked).toBe(false);
    await userEvent.click(sw);
    await waitFor(() => expect((screen.getByRole("switch") as HTMLInputElement).checked).toBe(true));
    expect(calls[1]).toEqual(["claude", true]);
    expect(screen.getByText(/Mirror on/)).toBeTruthy();
  });

  it("says when nothing is found or the list cannot be read", async () => {
    render(<HistorySettings api={fakeApi([]).api} />);
    expect(await screen.findByText(/No Claude Code or Codex history/)).toBeTruthy();
    const broken = { historySources: async () => Promise.reject(new Error("x")), importHistory: fakeApi([]).api.importHistory };
    render(<HistorySettings api={broken} />);
    expect(await screen.findByText(/could not be read/)).toBeTruthy();
  });
});
