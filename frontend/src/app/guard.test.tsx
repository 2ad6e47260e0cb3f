import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClient, type RawResponse } from "../transport/api";
import type { Transport } from "../transport/transport";
import { App, FILES_ATTACH, FILES_DROPPED } from "./App";
import { openExternal } from "../components/common/external";
import { droppedPaths, dropText, installGuards } from "./guard";

describe("dropText", () => {
  it.each([
    { name: "inside the project: relative", paths: ["/w/p/src/a.go"], ws: "/w/p", want: "src/a.go" },
    { name: "workspace with a trailing slash", paths: ["/w/p/a.go"], ws: "/w/p/", want: "a.go" },
    { name: "outside: absolute", paths: ["/etc/hosts"], ws: "/w/p", want: "/etc/hosts" },
    { name: "a sibling folder sharing the prefix stays absolute", paths: ["/w/pp/a"], ws: "/w/p", want: "/w/pp/a" },
    { name: "no project: absolute", paths: ["/w/p/a"], ws: undefined, want: "/w/p/a" },
    { name: "spaces are quoted, several joined", paths: ["/w/p/my file.txt", "/w/p/b"], ws: "/w/p", want: '"my file.txt" b' },
  ])("$name", ({ paths, ws, want }) => expect(dropText(paths, ws)).toBe(want));
});

describe("droppedPaths", () => {
  it.each([
    { name: "absolute paths pass", in: ["/home/me/a.txt", "C:\\w\\b.png"], want: ["/home/me/a.txt", "C:\\w\\b.png"] },
    { name: "not a list", in: "/etc/passwd", want: [] },
    { name: "nothing", in: undefined, want: [] },
    { name: "empty, relative, URLs and non-strings are dropped", in: ["", "a.txt", "file:///x", "https://e.com/x", 3, null, "/ok"], want: ["/ok"] },
  ])("$name", ({ in: payload, want }) => expect(droppedPaths(payload)).toEqual(want));
});

function dragEvent(type: string, names: string[] = []): Event {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, "dataTransfer", { value: { files: names.map((name) => ({ name })), dropEffect: "none" } });
  return e;
}

describe("installGuards", () => {
  let off: (() => void) | undefined;
  afterEach(() => off?.());

  it("never lets a drop or a link navigate the page, and refuses window.open", () => {
    const dropped: string[][] = [];
    off = installGuards(window, (n) => dropped.push(n));
    const over = dragEvent("dragover");
    document.body.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    const drop = dragEvent("drop", ["page.html"]);
    document.body.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(dropped).toEqual([["page.html"]]);

    const a = document.createElement("a");
    a.href = "file:///etc/passwd";
    a.textContent = "x";
    document.body.append(a);
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    a.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    a.remove();

    // A download (an export) still saves its file.
    const dl = document.createElement("a");
    dl.href = "blob:http://localhost/123";
    dl.download = "session.md";
    document.body.append(dl);
    const save = new MouseEvent("click", { bubbles: true, cancelable: true });
    dl.dispatchEvent(save);
    expect(save.defaultPrevented).toBe(false);
    dl.remove();

    expect(window.open("https://example.com")).toBeNull();
  });

  it("cancels a dropped link or text too: the page never navigates to it", () => {
    const dropped: string[][] = [];
    off = installGuards(window, (n) => dropped.push(n));
    const over = dragEvent("dragover");
    document.body.dispatchEvent(over);
    const drop = dragEvent("drop");
    document.body.dispatchEvent(drop);
    expect([over.defaultPrevented, drop.defaultPrevented]).toEqual([true, true]);
    expect(dropped).toEqual([]); // no files: nothing to attach
  });

  it("lets openExternal open a new tab outside the app", () => {
    const opened: unknown[] = [];
    const real = window.open;
    window.open = ((u: string) => (opened.push(u), null)) as typeof window.open;
    off = installGuards(window);
    window.open("https://evil.example");
    openExternal("https://example.com/doc");
    expect(opened).toEqual(["https://example.com/doc"]);
    off();
    off = undefined;
    window.open = real;
  });
});

describe("a file dropped on the desktop window", () => {
  const ok = (v: unknown): RawResponse => ({ status: 200, body: JSON.stringify(v) });
  afterEach(() => {
    delete (window as { runtime?: unknown }).runtime;
    localStorage.clear();
  });

  async function desktopApp(upload?: Transport["upload"]) {
    const subs = new Map<string, (...d: unknown[]) => void>();
    (window as { runtime?: unknown }).runtime = {
      EventsOn: (name: string, cb: (...d: unknown[]) => void) => {
        subs.set(name, cb);
        return () => subs.delete(name);
      },
    };
    const t: Transport = {
      kind: "wails",
      api: new ApiClient(async (_m, p) => {
        if (p === "/api/projects") return ok([{ id: "p1", name: "proj", workspace: "/home/me/proj" }]);
        if (p.startsWith("/api/sessions")) return ok([]);
        if (p.startsWith("/api/runs")) return ok([]);
        if (p === "/api/agents") return ok([{ name: "claude", installed: true, status: "ready" }]);
        return { status: 404, body: "{}" };
      }),
      watchRun: () => () => {},
      upload,
    };
    render(<App transport={t} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    await waitFor(() => expect(subs.has(FILES_DROPPED) && subs.has(FILES_ATTACH)).toBe(true));
    return { box, emit: (name: string, payload: unknown) => act(() => subs.get(name)!(payload)) };
  }

  it("a folder becomes its project-relative path in the composer", async () => {
    const { box, emit } = await desktopApp();
    emit(FILES_DROPPED, ["/home/me/proj/src/main.go", "/tmp/x.html"]);
    await waitFor(() => expect(box.value).toBe("src/main.go /tmp/x.html"));
  });

  it("a file becomes an attachment by its own path, once, and the composer takes the focus", async () => {
    const platform = Object.getOwnPropertyDescriptor(Navigator.prototype, "platform");
    Object.defineProperty(navigator, "platform", { value: "Linux x86_64", configurable: true });
    try {
      const upload = vi.fn(async () => ({ path: "/data/uploads/1/notes.txt", name: "notes.txt", size: 3 }));
      const { box, emit } = await desktopApp(upload);
      box.blur();
      // WebKit delivers the drop to the page as well: the page cancels it
      // (no navigation) and uploads nothing; Go's paths attach the file.
      const drop = new Event("drop", { bubbles: true, cancelable: true });
      Object.defineProperty(drop, "dataTransfer", { value: { files: [new File(["abc"], "notes.txt")], types: ["Files"] } });
      act(() => void box.dispatchEvent(drop));
      expect(drop.defaultPrevented).toBe(true);
      emit(FILES_ATTACH, ["/home/me/notes.txt"]);
      emit(FILES_ATTACH, "not a list");
      const chips = await screen.findByRole("list", { name: "Attachments" });
      expect(chips.textContent).toContain("notes.txt");
      expect(screen.getAllByLabelText(/^Remove /)).toHaveLength(1);
      expect(screen.getByTitle("/home/me/notes.txt")).toBeTruthy();
      expect(upload).not.toHaveBeenCalled();
      expect(document.activeElement).toBe(box);
    } finally {
      delete (navigator as { platform?: string }).platform;
      if (platform) Object.defineProperty(Navigator.prototype, "platform", platform);
    }
  });
});
