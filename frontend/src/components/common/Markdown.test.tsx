import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LAZY_CHARS, Markdown } from "./Markdown";

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

  it("a flood (one line, no breaks) keeps its pieces when finished and when the rest is shown", () => {
    const text = `Flooding… ${"x".repeat(LAZY_CHARS)}\nflood done\n`;
    const { container, rerender, getByRole } = render(<Markdown text={text.slice(0, -12)} done={false} />);
    const head = [...container.querySelectorAll(".md-piece")];
    expect(head.length).toBeGreaterThan(10);
    // Cut mid-paragraph: styled as one paragraph across the pieces.
    expect(head.slice(1).every((p) => p.classList.contains("md-cont"))).toBe(true);
    expect(head.slice(0, -1).every((p) => p.classList.contains("md-cut"))).toBe(true);
    expect(head[head.length - 1]!.classList.contains("md-cut")).toBe(false);
    rerender(<Markdown text={text} done />);
    fireEvent.click(getByRole("button", { name: /Show the rest/ }));
    const all = [...container.querySelectorAll(".md-piece")];
    expect(all.slice(0, head.length - 1)).toEqual(head.slice(0, -1));
    expect(container.textContent!.replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
  });
});

describe("Markdown while streaming", () => {
  const para = (i: number) => `Paragraph ${i}: ${"some words ".repeat(40)}`;
  const doc = Array.from({ length: 20 }, (_, i) => para(i)).join("\n\n");

  it("re-renders only the last piece as text arrives; settled pieces keep their DOM", () => {
    const { container, rerender } = render(<Markdown text={doc.slice(0, 6000)} done={false} />);
    const before = [...container.querySelectorAll(".md-piece")];
    expect(before.length).toBeGreaterThan(1);
    rerender(<Markdown text={doc.slice(0, 6100)} done={false} />);
    const after = [...container.querySelectorAll(".md-piece")];
    // Same nodes, same HTML: nothing re-rendered, nothing to lay out again.
    for (let i = 0; i < before.length - 1; i++) {
      expect(after[i]).toBe(before[i]);
    }
    expect(after[after.length - 1]!.textContent).toContain(doc.slice(6000, 6100).trim().split(" ")[0]);
  });

  it("a finished block keeps the pieces when they render like the whole", () => {
    const { container, rerender } = render(<Markdown text={doc} done={false} />);
    const before = [...container.querySelectorAll(".md-piece")];
    rerender(<Markdown text={doc} done />);
    expect([...container.querySelectorAll(".md-piece")]).toEqual(before);
    expect(container.querySelectorAll("p").length).toBe(20);
  });

  it("a finished block whose pieces would differ is rendered whole", () => {
    // A loose list across a cut: two lists in pieces, one list whole.
    const text = `${para(0).repeat(6)}\n\n- a\n\n- b`;
    const { container, rerender } = render(<Markdown text={text} done={false} />);
    expect(container.querySelectorAll(".md-piece").length).toBe(2);
    rerender(<Markdown text={text} done />);
    expect(container.querySelectorAll(".md-piece").length).toBe(0);
    expect(container.querySelectorAll("ul").length).toBe(1);
    expect(container.querySelectorAll("li").length).toBe(2);
  });
});
