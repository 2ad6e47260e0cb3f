import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LAZY_CHARS, Markdown, splitStable } from "./Markdown";

describe("splitStable", () => {
  it.each([
    ["one para", "", "one para"],
    ["a\n\nb", "a\n", "\nb"],
    ["a\n\nb\n\nc", "a\n\nb\n", "\nc"],
    ["a\n\n```\nx\n\ny\n", "a\n", "\n```\nx\n\ny\n"],
    ["a\n\n```\nx\n\ny\n```\n\nz", "a\n\n```\nx\n\ny\n```\n", "\nz"],
    ["trailing\n\n", "trailing\n", "\n"],
  ])("%j → head %j, tail %j", (text, head, tail) => {
    expect(splitStable(text)).toEqual([head, tail]);
    expect(head + tail).toBe(text);
  });
});

describe("Markdown", () => {
  it("renders streaming text like finished text", () => {
    const text = "# Title\n\nSome **bold** text.\n\n- a\n- b\n\n```go\nx := 1\n\ny := 2\n```\n\nlast line";
    const a = render(<Markdown text={text} done={false} />).container;
    const b = render(<Markdown text={text} done />).container;
    const shape = (c: HTMLElement) => [...c.querySelectorAll("h1,p,strong,li,pre")].map((e) => `${e.tagName}:${e.textContent}`);
    expect(shape(a)).toEqual(shape(b));
  });
});

describe("Markdown of a huge block", () => {
  it("renders the beginning and the rest only when asked", () => {
    const line = "word ".repeat(19) + "\n";
    const text = line.repeat(Math.ceil((LAZY_CHARS * 2) / line.length)) + "THE END";
    const { container, getByRole } = render(<Markdown text={text} done />);
    expect(container.textContent).not.toContain("THE END");
    fireEvent.click(getByRole("button", { name: /Show the rest/ }));
    expect(container.textContent).toContain("THE END");
  });
});
