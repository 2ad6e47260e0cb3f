import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { DesktopBridge } from "../../transport/transport";
import { SettingsDialog, keepLabel, stopLabel } from "./Dialogs";

function desktop(quit: DesktopBridge["quit"]): DesktopBridge {
  return {
    info: async () => ({ name: "Hermes Desk", version: "1", commit: "", data_dir: "/d", platform: "linux", tray_available: true, autostart_supported: false }),
    getAutostart: async () => false,
    setAutostart: async (on) => on,
    pickFolder: async () => "",
    quit,
    onAutostartChanged: () => () => {},
    onSecondInstance: () => () => {},
  };
}

// Settings → Quit asks what the tray's Quit asks when runs are active
// (issue 23.9), with the tray's words.
describe("Settings → Quit", () => {
  it("quits at once with no active runs", async () => {
    const quit = vi.fn();
    render(<SettingsDialog theme="system" onTheme={() => {}} onAbout={() => {}} onClose={() => {}} desktop={desktop(quit)} activeRuns={() => 0} />);
    await userEvent.click(screen.getByRole("button", { name: "Quit Hermes Desk" }));
    expect(quit).toHaveBeenCalledWith(undefined);
  });

  it.each([
    ["keep", keepLabel(3)],
    ["stop", stopLabel(3)],
  ])("with active runs asks first, then quits with %s", async (runs, label) => {
    const quit = vi.fn();
    render(<SettingsDialog theme="system" onTheme={() => {}} onAbout={() => {}} onClose={() => {}} desktop={desktop(quit)} activeRuns={() => 3} />);
    await userEvent.click(screen.getByRole("button", { name: "Quit Hermes Desk" }));
    expect(quit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: label }));
    expect(quit).toHaveBeenCalledWith(runs);
  });

  it("words the choices as the tray does (backend/traystate KeepLabel, StopLabel)", () => {
    expect(keepLabel(1)).toBe("Keep 1 run running in the background");
    expect(stopLabel(1)).toBe("Stop 1 run and quit");
    expect(keepLabel(3)).toBe("Keep 3 runs running in the background");
    expect(stopLabel(3)).toBe("Stop 3 runs and quit");
  });
});
