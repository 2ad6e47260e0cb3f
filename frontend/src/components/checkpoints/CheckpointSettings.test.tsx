import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Settings } from "../../transport/types";
import { CHECKPOINT_KEYS, CheckpointSettings, parseRetention, sizeText } from "./CheckpointSettings";

function fakeApi(initial: Settings) {
  let stored = { ...initial };
  return {
    getSettings: vi.fn(async () => stored),
    putSettings: vi.fn(async (p: Settings) => {
      stored = { ...stored, ...p };
      return stored;
    }),
    checkpointUsage: vi.fn(async () => ({ bytes: 5 * 1024 * 1024, checkpoints: 3 })),
  };
}

describe("CheckpointSettings", () => {
  it("shows the disk used, turns checkpoints off and saves the limits in the backend's units", async () => {
    const api = fakeApi({ [CHECKPOINT_KEYS.maxAgeDays]: 7 });
    render(<CheckpointSettings api={api} />);
    expect((await screen.findByText(/Disk used: 5\.0 MB in 3 checkpoints/)).textContent).toBeTruthy();
    const on = screen.getByLabelText("Keep the files before every run") as HTMLInputElement;
    await waitFor(() => expect(on.disabled).toBe(false));
    expect(on.checked).toBe(true);
    fireEvent.click(on);
    await waitFor(() => expect(api.putSettings).toHaveBeenCalledWith({ [CHECKPOINT_KEYS.enabled]: false }));
    await waitFor(() => expect(on.checked).toBe(false));
    expect((screen.getByLabelText("Keep for (days)") as HTMLInputElement).value).toBe("7");
    fireEvent.change(screen.getByLabelText("At most (GB)"), { target: { value: "1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save checkpoint limits" }));
    await waitFor(() => expect(api.putSettings).toHaveBeenLastCalledWith({ [CHECKPOINT_KEYS.maxAgeDays]: 7, [CHECKPOINT_KEYS.maxBytes]: 1 << 30 }));
  });

  it("says plainly what is wrong with a limit and saves nothing", async () => {
    const api = fakeApi({});
    render(<CheckpointSettings api={api} />);
    fireEvent.change(await screen.findByLabelText("Keep for (days)"), { target: { value: "-2" } });
    fireEvent.click(screen.getByRole("button", { name: "Save checkpoint limits" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/Enter a number of days above 0/);
    expect(api.putSettings).not.toHaveBeenCalled();
  });
});

describe("parseRetention", () => {
  it.each([
    ["", "", { [CHECKPOINT_KEYS.maxAgeDays]: null, [CHECKPOINT_KEYS.maxBytes]: null }],
    ["14", "0.5", { [CHECKPOINT_KEYS.maxAgeDays]: 14, [CHECKPOINT_KEYS.maxBytes]: 1 << 29 }],
  ])("%j %j", (d, g, want) => expect(parseRetention(d, g)).toEqual(want));
  it.each([["0", ""], ["x", ""], ["", "-1"]])("refuses %j %j", (d, g) => expect(() => parseRetention(d, g)).toThrow(/Enter/));
});

describe("sizeText", () => {
  it.each([
    [512, "512 B"],
    [2048, "2.0 KB"],
    [3 * 1024 * 1024 * 1024, "3.0 GB"],
    [200 * 1024 * 1024, "200 MB"],
  ])("%d", (n, want) => expect(sizeText(n)).toBe(want));
});
