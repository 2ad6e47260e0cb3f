import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../transport/api";
import { ExportMenu } from "./ExportMenu";

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
});
