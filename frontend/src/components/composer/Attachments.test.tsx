import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRef } from "react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Transport } from "../../transport/transport";
import { MAX_ATTACHMENT_BYTES, MessageAttachments, attachSourceOf, humanSize, type AttachSource } from "./Attachments";
import { Composer, type ComposerHandle } from "./Composer";

function file(name: string, size: number, type = "text/plain"): File {
  const f = new File(["x"], name, { type });
  Object.defineProperty(f, "size", { value: size });
  return f;
}

function setup(src: AttachSource) {
  const onSend = vi.fn(async (_t: string, _a: string[]) => true);
  render(<Composer onSend={onSend} queueing={false} attach={src} />);
  return { onSend };
}

function uploader() {
  return vi.fn(async (f: Blob, name: string) => ({ path: `/data/uploads/x/${name}`, name, size: f.size }));
}

describe("attachments in the composer", () => {
  it.each([
    [0, "0 B"],
    [2048, "2 KiB"],
    [3 << 20, "3.0 MiB"],
  ])("%d bytes read as %s", (n, s) => expect(humanSize(n)).toBe(s));

  it("uploads a browser file, shows it as a chip, and sends its path with the message", async () => {
    const upload = uploader();
    const { onSend } = setup({ upload });
    const input = screen.getByTestId("attach-input") as HTMLInputElement;
    await userEvent.upload(input, file("notes.txt", 5));
    expect(await screen.findByText("notes.txt")).toBeTruthy();
    expect(upload).toHaveBeenCalledWith(expect.any(File), "notes.txt");
    await userEvent.type(screen.getByLabelText("Message"), "read this{Enter}");
    expect(onSend).toHaveBeenCalledWith("read this", ["/data/uploads/x/notes.txt"]);
    await waitFor(() => expect(screen.queryByText("notes.txt")).toBeNull()); // cleared once sent
  });

  it("a chip can be removed before sending", async () => {
    const { onSend } = setup({ upload: uploader() });
    await userEvent.upload(screen.getByTestId("attach-input"), [file("a.txt", 1), file("b.png", 2, "image/png")]);
    await screen.findByText("b.png");
    await userEvent.click(screen.getByLabelText("Remove a.txt"));
    expect(screen.queryByText("a.txt")).toBeNull();
    await userEvent.type(screen.getByLabelText("Message"), "hi{Enter}");
    expect(onSend).toHaveBeenCalledWith("hi", ["/data/uploads/x/b.png"]);
  });

  it("refuses a 200 MB file in plain words and uploads nothing", async () => {
    const upload = uploader();
    setup({ upload });
    await userEvent.upload(screen.getByTestId("attach-input"), file("huge.iso", 200 * 1000 * 1000));
    expect(screen.getByRole("alert").textContent).toBe(`huge.iso is 190.7 MiB; an attachment can be at most ${MAX_ATTACHMENT_BYTES >> 20} MiB.`);
    expect(upload).not.toHaveBeenCalled();
    expect(screen.queryByRole("list", { name: "Attachments" })).toBeNull();
  });

  it("says why an upload failed and leaves no chip", async () => {
    setup({ upload: vi.fn(async () => Promise.reject(new Error("the disk is full"))) });
    await userEvent.upload(screen.getByTestId("attach-input"), file("a.txt", 1));
    expect((await screen.findByRole("alert")).textContent).toBe("a.txt could not be attached: the disk is full");
    expect(screen.queryByText("a.txt")).toBeNull();
  });

  it("takes a dropped file and a pasted image", async () => {
    const upload = uploader();
    setup({ upload });
    const box = screen.getByLabelText("Message").parentElement!;
    fireEvent.drop(box, { dataTransfer: { files: [file("dropped.md", 3)], types: ["Files"] } });
    expect(await screen.findByText("dropped.md")).toBeTruthy();
    fireEvent.paste(screen.getByLabelText("Message"), { clipboardData: { files: [file("image.png", 4, "image/png")] } });
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(2));
    expect(upload.mock.calls[1]?.[1]).toMatch(/^pasted-.*\.png$/);
  });

  it("a paste the page sees empty asks the desktop window for the clipboard's image", async () => {
    const pasteImage = vi.fn(async (name: string) => ({ path: `/data/uploads/y/${name}`, name, size: 68 }));
    const { onSend } = setup({ upload: uploader(), pasteImage });
    const box = screen.getByLabelText("Message");
    fireEvent.paste(box, { clipboardData: { files: [], getData: () => "" } });
    expect(await screen.findByText(/^pasted-.*\.png$/)).toBeTruthy();
    expect(pasteImage).toHaveBeenCalledWith(expect.stringMatching(/^pasted-.*\.png$/));
    await waitFor(() => expect(screen.getByLabelText("Send")).toHaveProperty("disabled", false));
    await userEvent.click(screen.getByLabelText("Send"));
    expect(onSend).toHaveBeenCalledWith("", [`/data/uploads/y/${pasteImage.mock.calls[0]![0]}`]);
  });

  it("a text paste stays text, and a clipboard with no image attaches nothing", async () => {
    const pasteImage = vi.fn(async () => null);
    setup({ pasteImage });
    const box = screen.getByLabelText("Message");
    fireEvent.paste(box, { clipboardData: { files: [], getData: () => "some words" } });
    expect(pasteImage).not.toHaveBeenCalled();
    fireEvent.paste(box, { clipboardData: { files: [], getData: () => "" } });
    await waitFor(() => expect(pasteImage).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Attachments" })).toBeNull());
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says why the clipboard's image could not be attached", async () => {
    setup({ pasteImage: vi.fn(async () => Promise.reject(new Error("the file is larger than 20 MiB"))) });
    fireEvent.paste(screen.getByLabelText("Message"), { clipboardData: { files: [], getData: () => "" } });
    expect((await screen.findByRole("alert")).textContent).toBe("The pasted image could not be attached: the file is larger than 20 MiB");
    expect(screen.queryByRole("list", { name: "Attachments" })).toBeNull();
  });

  it("uses the native chooser when the window has one, with no upload", async () => {
    const pickFiles = vi.fn(async () => ["/home/me/a.png", "/home/me/b.txt"]);
    const { onSend } = setup({ pickFiles });
    await userEvent.click(screen.getByLabelText("Attach files"));
    expect(await screen.findByText("a.png")).toBeTruthy();
    expect(screen.queryByTestId("attach-input")).toBeNull();
    // Files alone can be sent, with no text.
    await userEvent.click(screen.getByLabelText("Send"));
    expect(onSend).toHaveBeenCalledWith("", ["/home/me/a.png", "/home/me/b.txt"]);
  });

  it.each([
    ["files picked", ["/home/me/a.png"]],
    ["the chooser cancelled", []],
  ])("after the paperclip (%s) the keyboard is back in the message box, caret at the end", async (_, picked) => {
    setup({ pickFiles: vi.fn(async () => picked) });
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "look at this");
    box.setSelectionRange(0, 0);
    await userEvent.click(screen.getByLabelText("Attach files"));
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect([box.selectionStart, box.selectionEnd]).toEqual([12, 12]);
    await userEvent.keyboard(" please");
    expect(box.value).toBe("look at this please");
  });

  it("after the browser's file input the keyboard is back in the message box", async () => {
    setup({ upload: uploader() });
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    await userEvent.type(box, "hi");
    await userEvent.upload(screen.getByTestId("attach-input"), file("a.txt", 1));
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(box.selectionStart).toBe(2);
  });

  it("the chooser opens in the session's project folder", async () => {
    const pickFiles = vi.fn(async () => []);
    const t = { kind: "wails", desktop: { pickFiles } } as unknown as Transport;
    await attachSourceOf(t, "Linux x86_64", "/home/me/proj").pickFiles?.();
    expect(pickFiles).toHaveBeenCalledWith("Attach files", "/home/me/proj");
  });

  it("stops at ten attachments per message", async () => {
    const pickFiles = vi.fn(async () => Array.from({ length: 12 }, (_, i) => `/f/${i}.txt`));
    setup({ pickFiles });
    await userEvent.click(screen.getByLabelText("Attach files"));
    expect((await screen.findByRole("alert")).textContent).toBe("At most 10 attachments per message.");
    expect(screen.getAllByLabelText(/^Remove /)).toHaveLength(10);
  });

  it("has no paperclip without a way to attach", () => {
    render(<Composer onSend={vi.fn()} queueing={false} />);
    expect(screen.queryByLabelText("Attach files")).toBeNull();
  });

  it("in the Linux desktop window a file dropped on the box is left to the window's native drop: no upload", async () => {
    const upload = uploader();
    setup({ upload, nativeDrops: true });
    const box = screen.getByLabelText("Message").parentElement!;
    const dropped = fireEvent.drop(box, { dataTransfer: { files: [file("notes.txt", 3)], types: ["Files"] } });
    expect(dropped).toBe(false); // default prevented: WebKit opens nothing
    expect(upload).not.toHaveBeenCalled();
    expect(screen.queryByText("notes.txt")).toBeNull();
  });

  it("in a host's session a natively dropped file's bytes go to the host and its path there is attached", async () => {
    const uploadPath = vi.fn(async (p: string) => ({ path: `/home/remote/uploads/1/${p.split("/").pop()}`, name: "notes.md", size: 8 }));
    const onSend = vi.fn(async (_t: string, _a: string[]) => true);
    const ref = createRef<ComposerHandle>();
    render(<Composer ref={ref} onSend={onSend} queueing={false} attach={{ uploadPath, nativeDrops: true }} />);
    act(() => ref.current!.attach(["/home/me/notes.md"]));
    expect(uploadPath).toHaveBeenCalledWith("/home/me/notes.md");
    await screen.findByTitle("/home/remote/uploads/1/notes.md");
    await userEvent.type(screen.getByLabelText("Message"), "read this{Enter}");
    expect(onSend).toHaveBeenCalledWith("read this", ["/home/remote/uploads/1/notes.md"]);
  });

  it("a dropped link or text attaches nothing", () => {
    const upload = uploader();
    setup({ upload });
    const box = screen.getByLabelText("Message").parentElement!;
    fireEvent.drop(box, { dataTransfer: { files: [], types: ["text/uri-list", "text/plain"], getData: () => "https://example.com/page.html" } });
    expect(upload).not.toHaveBeenCalled();
    expect(screen.queryByRole("list", { name: "Attachments" })).toBeNull();
  });

  it.each([
    { kind: "wails", platform: "Linux x86_64", native: true },
    { kind: "wails", platform: "Win32", native: false },
    { kind: "wails", platform: "MacIntel", native: false },
    { kind: "http", platform: "Linux x86_64", native: false },
  ] as const)("drops arrive by path natively: $kind on $platform → $native", ({ kind, platform, native }) => {
    const t = { kind } as unknown as Transport;
    expect(attachSourceOf(t, platform).nativeDrops).toBe(native);
  });

  it("only a host's transport uploads dropped paths", () => {
    const uploadFile = vi.fn();
    expect(attachSourceOf({ kind: "wails", uploadFile } as unknown as Transport, "Linux").uploadPath).toBeUndefined();
    expect(attachSourceOf({ kind: "wails", host: "h1", uploadFile } as unknown as Transport, "Linux").uploadPath).toBeDefined();
  });

  it("shows a sent message's attachments by name", () => {
    render(<MessageAttachments paths={["/w/shot.png", "C:\\w\\notes.txt"]} />);
    expect(screen.getByRole("list", { name: "Attached files" }).textContent).toBe("shot.pngnotes.txt");
  });
});
