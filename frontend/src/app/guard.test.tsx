import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, type RawResponse } from "../transport/api";
import type { Transport } from "../transport/transport";
import { App, FILES_DROPPED } from "./App";
import { openExternal } from "./external";
import { dropText, installGuards } from "./guard";

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

  it("becomes its project-relative path in the composer", async () => {
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
    };
    render(<App transport={t} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    await waitFor(() => expect(subs.has(FILES_DROPPED)).toBe(true));
    act(() => subs.get(FILES_DROPPED)!(["/home/me/proj/src/main.go", "/tmp/x.html"]));
    await waitFor(() => expect(box.value).toBe("src/main.go /tmp/x.html"));
  });
});
