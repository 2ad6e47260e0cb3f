import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../transport/api";
import type { Transport } from "../../transport/transport";
import { ExportMenu, exportSaver } from "./ExportMenu";

describe("ExportMenu", () => {
  it("exports the session or the latest run in the chosen format and saves the file", async () => {
    const file = { filename: "s.md", content_type: "text/markdown", content: "# s" };
    const exportSession = vi.fn(async () => file);
    const save = vi.fn();
    render(<ExportMenu api={{ exportSession }} sessionId="ses_1" runId="run_2" save={save} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Latest run as bundle" }));
    expect(exportSession).toHaveBeenCalledWith("ses_1", "bundle", "run_2");
    expect(save).toHaveBeenCalledWith(file);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("drops its tooltip while the menu is open, so it does not cover it (polish)", async () => {
    render(<ExportMenu api={{ exportSession: vi.fn() }} sessionId="ses_1" save={vi.fn()} />);
    const button = screen.getByRole("button", { name: "Export" });
    expect(button.getAttribute("title")).toBe("Export");
    await userEvent.click(button);
    expect(screen.getByRole("menu")).toBeTruthy();
    expect(button.getAttribute("title")).toBeNull();
  });

  it("says why an export failed", async () => {
    const exportSession = vi.fn(async () => {
      throw new ApiError(404, "not_found", "session or run not found");
    });
    render(<ExportMenu api={{ exportSession }} sessionId="ses_1" save={vi.fn()} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(screen.queryByRole("menuitem", { name: /Latest run/ })).toBeNull();
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    expect((await screen.findByRole("alert")).textContent).toContain("not found");
  });

  it("in the desktop window saves through the native Save dialog and says where", async () => {
    const file = { filename: "Fix login.md", content_type: "text/markdown", content: "# Fix login" };
    const saveExport = vi.fn(async () => ({ path: "/home/me/Downloads/Fix login.md", shown: "~/Downloads/Fix login.md" }));
    const t = { desktop: { saveExport } } as unknown as Transport;
    render(<ExportMenu api={{ exportSession: vi.fn(async () => file) }} sessionId="ses_1" save={exportSaver(t)} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    expect(saveExport).toHaveBeenCalledWith(file);
    expect((await screen.findByRole("status")).textContent).toBe("Saved to ~/Downloads/Fix login.md");
    expect(screen.queryByRole("menu")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("in the desktop window a cancelled Save dialog says nothing", async () => {
    const t = { desktop: { saveExport: vi.fn(async () => ({ path: "", shown: "" })) } } as unknown as Transport;
    render(<ExportMenu api={{ exportSession: vi.fn(async () => ({ filename: "s.md", content_type: "text/markdown", content: "" })) }} sessionId="ses_1" save={exportSaver(t)} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("in the desktop window says why the file could not be saved", async () => {
    const t = { desktop: { saveExport: vi.fn(async () => Promise.reject(new Error("could not save s.md: permission denied"))) } } as unknown as Transport;
    render(<ExportMenu api={{ exportSession: vi.fn(async () => ({ filename: "s.md", content_type: "text/markdown", content: "" })) }} sessionId="ses_1" save={exportSaver(t)} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    expect((await screen.findByRole("alert")).textContent).toBe("could not save s.md: permission denied");
  });

  it("in a browser keeps the download", async () => {
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    // jsdom has no object URLs.
    URL.createObjectURL ??= () => "blob:x";
    URL.revokeObjectURL ??= () => {};
    try {
      const saved = await exportSaver({} as Transport)({ filename: "s.md", content_type: "text/markdown", content: "# s" });
      expect(saved).toBeUndefined();
      expect(clicked).toEqual(["s.md"]);
    } finally {
      click.mockRestore();
    }
  });

  it("in the desktop window opens the folder it saved to", async () => {
    const saveExport = vi.fn(async () => ({ path: "/home/me/Downloads/s.md", shown: "~/Downloads/s.md" }));
    const showFolder = vi.fn(async () => {});
    const t = { desktop: { saveExport, showFolder } } as unknown as Transport;
    render(<ExportMenu api={{ exportSession: vi.fn(async () => ({ filename: "s.md", content_type: "text/markdown", content: "" })) }} sessionId="ses_1" save={exportSaver(t)} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    await userEvent.click(await screen.findByRole("button", { name: "Open folder" }));
    expect(showFolder).toHaveBeenCalledWith("/home/me/Downloads/s.md");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("says why the folder could not be opened", async () => {
    const t = {
      desktop: {
        saveExport: vi.fn(async () => ({ path: "/x/s.md", shown: "/x/s.md" })),
        showFolder: vi.fn(async () => Promise.reject(new Error("the folder /x is not there any more"))),
      },
    } as unknown as Transport;
    render(<ExportMenu api={{ exportSession: vi.fn(async () => ({ filename: "s.md", content_type: "text/markdown", content: "" })) }} sessionId="ses_1" save={exportSaver(t)} />);
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Session as Markdown" }));
    await userEvent.click(await screen.findByRole("button", { name: "Open folder" }));
    expect((await screen.findByRole("alert")).textContent).toBe("the folder /x is not there any more");
  });
});
