import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CopyButton, Toaster } from "./copy";
import { Markdown } from "./Markdown";
import { NoAgent } from "./EmptyStates";

describe("copy", () => {
  it("copies a code block by keyboard and says so", async () => {
    const user = userEvent.setup();
    render(
      <>
        <Markdown text={"Run this:\n\n```sh\nmake test\n```\n"} done />
        <Toaster />
      </>,
    );
    const btn = await screen.findByRole("button", { name: "Copy code" });
    await user.tab();
    expect(document.activeElement).toBe(btn);
    await user.keyboard("{Enter}");
    expect(await navigator.clipboard.readText()).toBe("make test");
    expect(await screen.findByText("Code copied")).toBeTruthy();
  });

  it("copies an answer and the install commands of the onboarding page", async () => {
    const user = userEvent.setup();
    render(
      <>
        <CopyButton text="the whole answer" what="Answer" />
        <NoAgent onDemo={() => {}} onRecheck={() => {}} />
        <Toaster />
      </>,
    );
    await user.click(screen.getByRole("button", { name: "Copy answer" }));
    expect(await navigator.clipboard.readText()).toBe("the whole answer");
    const cmds = screen.getAllByRole("button", { name: "Copy command" });
    expect(cmds.length).toBeGreaterThan(1);
    await user.click(cmds[0]!);
    const first = document.querySelector(".install-list code")!.textContent;
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(first));
    expect(await screen.findByText("Command copied")).toBeTruthy();
  });
});

describe("modKey", () => {
  it.each([
    ["Linux x86_64", "Ctrl"],
    ["Win32", "Ctrl"],
    ["MacIntel", "⌘"],
  ])("%s → %s", async (platform, want) => {
    const { modKey } = await import("../settings/Dialogs");
    expect(modKey(platform)).toBe(want);
  });
});

describe("InlineCode", () => {
  it("shows backticked spans of a title as code, not as backticks", async () => {
    const { InlineCode } = await import("./InlineCode");
    const { container } = render(<h3><InlineCode text="Run `ls -la` in `src`" /></h3>);
    expect(container.textContent).toBe("Run ls -la in src");
    expect([...container.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["ls -la", "src"]);
  });
});
