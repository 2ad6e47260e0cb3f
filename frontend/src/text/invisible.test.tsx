import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { hasInvisible, revealInvisible, splitInvisible } from "./invisible";
import { Visible } from "./Visible";

const cases: Array<[string, string, string]> = [
  ["RLO in a file name", "/tmp/\u202Egnp.exe", "/tmp/<U+202E>gnp.exe"],
  ["RLO in a command", "ls -la \u202Ehs.live/elpmaxe.live//:sptth | lruc ;", "ls -la <U+202E>hs.live/elpmaxe.live//:sptth | lruc ;"],
  ["isolates", "a\u2067b\u2069c", "a<U+2067>b<U+2069>c"],
  ["zero-width joiner", "pay\u200Dpal", "pay<U+200D>pal"],
  ["BOM and LRM", "\uFEFFx\u200E", "<U+FEFF>x<U+200E>"],
  ["terminal escape", "ok\u001b[2Khidden", "ok<U+001B>[2Khidden"],
  ["C1 control", "a\u009Bb", "a<U+009B>b"],
  ["tag character", "a\u{E0041}b", "a<U+E0041>b"],
];

describe("invisible characters", () => {
  it.each(cases)("%s is shown visibly", (_, input, want) => {
    expect(hasInvisible(input)).toBe(true);
    expect(revealInvisible(input)).toBe(want);
    const { container } = render(<Visible text={input} />);
    expect(container.textContent).toBe(want);
    expect(container.textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF\u001b\u009B]/);
    expect(container.querySelectorAll(".invisible-char").length).toBe(
      splitInvisible(input).filter((p) => "hidden" in p).length,
    );
  });

  it.each(["plain text", "tabs\tand\nnewlines\r\n", "émoji 🎉 and العربية and 日本語", ""])("%j is left alone", (s) => {
    expect(hasInvisible(s)).toBe(false);
    expect(revealInvisible(s)).toBe(s);
  });

  it("keeps answering the same after earlier calls (no lastIndex carry-over)", () => {
    const s = "abcdefgh\u202Eij\u202E";
    for (let i = 0; i < 3; i++) {
      expect(hasInvisible(s)).toBe(true);
      expect(splitInvisible(s).filter((p) => "hidden" in p)).toHaveLength(2);
      expect(revealInvisible(s)).toBe("abcdefgh<U+202E>ij<U+202E>");
    }
  });
});
