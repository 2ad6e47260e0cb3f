import { describe, expect, it } from "vitest";
import { BackendUnavailableError } from "./api";
import { createTransport, inWails } from "./index";
import { fakeWindow } from "./testWindow";
import { DOORBELL, WailsTransport, launchFolder } from "./wails";

const R = "run_w";

describe("WailsTransport", () => {
  it("is chosen when window.go.app.Desktop exists and routes requests through Request", async () => {
    const fw = fakeWindow();
    expect(inWails(fw.win)).toBe(true);
    const t = createTransport(fw.win);
    expect(t.kind).toBe("wails");
    expect(await t.api.listProjects()).toEqual([{ id: "p1", name: "x", workspace: "/x" }]);
    expect(fw.requests).toEqual(["GET /api/projects"]);
    await expect(t.api.getRun("nope")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("says the backend is not connected when Request is not bound yet", async () => {
    const fw = fakeWindow();
    delete (fw.win.go.app.Desktop as Record<string, unknown>).Request;
    const t = new WailsTransport({ win: fw.win });
    await expect(t.api.listProjects()).rejects.toBeInstanceOf(BackendUnavailableError);
    // Desktop-only methods that exist still work.
    expect((await t.desktop.info()).version).toBe("0.1.0");
    expect(await t.desktop.pickFolder("Pick")).toBe("/home/me/proj");
  });

  it("reports missing desktop bindings as unavailable, not a crash", async () => {
    const t = new WailsTransport({ win: { location: { protocol: "wails:" } } });
    await expect(t.desktop.getAutostart()).rejects.toBeInstanceOf(BackendUnavailableError);
    expect(() => t.desktop.onAutostartChanged(() => {})()).not.toThrow();
  });

  it("opens the paperclip's chooser in the project folder, and in an older window without one", async () => {
    const fw = fakeWindow();
    const calls: unknown[][] = [];
    const d = fw.win.go.app.Desktop as Record<string, unknown>;
    d.PickFiles = async (...a: unknown[]) => (calls.push(["PickFiles", ...a]), null);
    d.PickFilesIn = async (...a: unknown[]) => (calls.push(["PickFilesIn", ...a]), ["/w/a.txt"]);
    const t = new WailsTransport({ win: fw.win });
    expect(await t.desktop.pickFiles?.("Attach files", "/w")).toEqual(["/w/a.txt"]);
    expect(await t.desktop.pickFiles?.("Attach files")).toEqual([]);
    delete d.PickFilesIn;
    expect(await t.desktop.pickFiles?.("Attach files", "/w")).toEqual([]);
    expect(calls).toEqual([["PickFilesIn", "Attach files", "/w"], ["PickFiles", "Attach files"], ["PickFiles", "Attach files"]]);
  });

  it("hands the theme to Desktop.SetTheme, and does nothing in a window without it", async () => {
    const fw = fakeWindow();
    const themes: string[] = [];
    (fw.win.go.app.Desktop as Record<string, unknown>).SetTheme = async (t: string) => void themes.push(t);
    await new WailsTransport({ win: fw.win }).desktop.setTheme?.("dark");
    expect(themes).toEqual(["dark"]);
    await expect(new WailsTransport({ win: fakeWindow().win }).desktop.setTheme?.("light")).resolves.toBeUndefined();
  });

  it("rings with each doorbell's seq for that run only, and stops ringing when asked", () => {
    const fw = fakeWindow();
    const t = new WailsTransport({ win: fw.win });
    const rung: number[] = [];
    const stop = t.ringRun(R, (seq) => rung.push(seq));
    fw.emit(DOORBELL, { run_id: R, seq: 4 });
    fw.emit(DOORBELL, { run_id: "other", seq: 9 });
    fw.emit(DOORBELL, [{ run_id: R, seq: 5 }, { run_id: R }]);
    stop();
    fw.emit(DOORBELL, { run_id: R, seq: 6 });
    expect(rung).toEqual([4, 5, Infinity]);
    // Ringing reads nothing: the pages are RunStore's to read.
    expect(fw.requests).toEqual([]);
  });

  it("forwards autostart:changed and app:second-instance", () => {
    const fw = fakeWindow();
    const t = new WailsTransport({ win: fw.win });
    const seen: unknown[] = [];
    const off = t.desktop.onAutostartChanged((on) => seen.push(on));
    t.desktop.onSecondInstance((l) => seen.push(l));
    fw.emit("autostart:changed", false);
    fw.emit("app:second-instance", { args: ["/tmp/p"], cwd: "/home/a" });
    fw.emit("app:second-instance", "garbage");
    off();
    fw.emit("autostart:changed", true);
    expect(seen).toEqual([false, { args: ["/tmp/p"], cwd: "/home/a" }, { args: [], cwd: "" }]);
  });

  it.each([
    [{ args: ["/srv/proj"], cwd: "/home/a" }, "/srv/proj"],
    [{ args: ["proj"], cwd: "/home/a" }, "/home/a/proj"],
    [{ args: ["./proj"], cwd: "/home/a/" }, "/home/a/proj"],
    [{ args: ["."], cwd: "/home/a" }, "/home/a/"],
    [{ args: ["--verbose", "src"], cwd: "/w" }, "/w/src"],
    [{ args: ["C:\\work\\x"], cwd: "" }, "C:\\work\\x"],
    [{ args: ["rel"], cwd: "" }, undefined],
    [{ args: ["--x"], cwd: "/w" }, undefined],
    [{ args: [], cwd: "/w" }, undefined],
  ])("launchFolder(%j) = %s", (launch, want) => {
    expect(launchFolder(launch)).toBe(want);
  });
});

describe("createTransport", () => {
  it("uses HTTP in a plain browser", () => {
    expect(inWails({ location: { protocol: "http:", hostname: "127.0.0.1" } })).toBe(false);
    expect(createTransport({ location: { protocol: "http:", hostname: "127.0.0.1" } }).kind).toBe("http");
  });
});
