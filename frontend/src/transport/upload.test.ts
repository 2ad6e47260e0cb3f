import { describe, expect, it, vi } from "vitest";
import { ApiError, BackendUnavailableError } from "./api";
import { HttpTransport } from "./http";
import { forHost } from "./host";
import type { Transport } from "./transport";
import { WailsTransport, toBase64 } from "./wails";

describe("uploads", () => {
  it("base64-encodes any bytes, in chunks", async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 256);
    const b64 = await toBase64(new Blob([bytes]));
    expect(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))).toEqual(bytes);
  });

  it("the desktop window sends the file through Desktop.Upload and gets its path", async () => {
    const Upload = vi.fn(async (name: string, data: string) => ({ status: 201, body: JSON.stringify({ path: `/d/uploads/1/${name}`, name, size: atob(data).length }) }));
    const t = new WailsTransport({ win: { go: { app: { Desktop: { Upload } } } } });
    expect(await t.upload(new Blob(["hi!"]), "a.txt")).toEqual({ path: "/d/uploads/1/a.txt", name: "a.txt", size: 3 });
    expect(Upload).toHaveBeenCalledWith("a.txt", "aGkh", "");
  });

  it("the desktop window reads the clipboard's image through Desktop.PasteImage", async () => {
    const answers = [
      { status: 201, body: JSON.stringify({ path: "/d/uploads/2/p.png", name: "p.png", size: 68 }) },
      { status: 204, body: "" },
      { status: 413, body: JSON.stringify({ error: { code: "too_large", message: "the file is larger than 20 MiB" } }) },
    ];
    const PasteImage = vi.fn(async () => answers.shift()!);
    const t = new WailsTransport({ win: { go: { app: { Desktop: { PasteImage } } } } });
    expect(await t.pasteImage("p.png")).toEqual({ path: "/d/uploads/2/p.png", name: "p.png", size: 68 });
    expect(PasteImage).toHaveBeenCalledWith("p.png", "");
    expect(await t.pasteImage("p.png")).toBeNull();
    await expect(t.pasteImage("p.png")).rejects.toThrow("the file is larger than 20 MiB");
    expect(await new WailsTransport({ win: { go: { app: { Desktop: {} } } } }).pasteImage("p.png")).toBeNull();
  });

  it("the desktop window sends a host session's file and clipboard image to that host", async () => {
    const Upload = vi.fn(async (name: string, data: string, host: string) => ({ status: 201, body: JSON.stringify({ path: `/home/me/.local/share/hermesdesk/uploads/${host}/${name}`, name, size: atob(data).length }) }));
    const PasteImage = vi.fn(async (name: string, host: string) => ({ status: 201, body: JSON.stringify({ path: `/home/me/uploads/${host}/${name}`, name, size: 1 }) }));
    const local = new WailsTransport({ win: { go: { app: { Desktop: { Upload, PasteImage } } } } });
    const t = forHost(local, "host_1a2b", "me@build-box");
    expect(await t.upload!(new Blob(["hi!"]), "a.txt")).toEqual({ path: "/home/me/.local/share/hermesdesk/uploads/host_1a2b/a.txt", name: "a.txt", size: 3 });
    expect(Upload).toHaveBeenCalledWith("a.txt", "aGkh", "host_1a2b");
    expect((await t.pasteImage!("p.png"))?.path).toBe("/home/me/uploads/host_1a2b/p.png");
    expect(PasteImage).toHaveBeenCalledWith("p.png", "host_1a2b");
    expect((local as Transport).uploadFile).toBeUndefined(); // this computer's paths are attached as they are
  });

  it("the desktop window sends a file dropped in a host's session, by its path here, to that host", async () => {
    const UploadFile = vi.fn(async (path: string, host: string) => ({ status: 201, body: JSON.stringify({ path: `/home/remote/uploads/${host}/x`, name: path, size: 1 }) }));
    const t = forHost(new WailsTransport({ win: { go: { app: { Desktop: { UploadFile } } } } }), "host_1a2b");
    expect((await t.uploadFile!("/home/me/notes.md")).path).toBe("/home/remote/uploads/host_1a2b/x");
    expect(UploadFile).toHaveBeenCalledWith("/home/me/notes.md", "host_1a2b");
  });

  it("an older desktop window without Upload says to use the paperclip", async () => {
    const t = new WailsTransport({ win: { go: { app: { Desktop: {} } } } });
    await expect(t.upload(new Blob(["x"]), "a.txt")).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it("the browser posts the raw file with the token and surfaces the server's refusal", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ error: { code: "too_large", message: "the file is larger than 20 MiB" } }), { status: 413 }));
    const t = new HttpTransport({ token: "tok", fetch });
    const err = await t.upload(new Blob(["x"]), "big file.bin").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("the file is larger than 20 MiB");
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/uploads?name=big%20file.bin");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>).Authorization).toBe("Bearer tok");
  });
});
