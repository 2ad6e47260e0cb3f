import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./render";
import { MAX_PIECE, MIN_PIECE, PieceCutter, pieces } from "./segments";

const para = (n: number, word = "word") => `${`${word} `.repeat(Math.ceil(n / (word.length + 1))).slice(0, n - 1)}.`;
const split = (text: string) => {
  const { starts } = pieces(text);
  return starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length));
};

describe("pieces", () => {
  it.each<[string, string, number[], boolean]>([
    ["empty", "", [0], true],
    ["short paragraphs stay one piece", "a\n\nb\n\nc", [0], true],
    ["a break past MIN_PIECE cuts before the next paragraph", `${para(MIN_PIECE)}\n\nnext`, [0, MIN_PIECE + 2], true],
    ["several blank lines: the cut is at the text", `${para(MIN_PIECE)}\n\n\n\nnext`, [0, MIN_PIECE + 4], true],
    ["a list item after the break is not exact", `${para(MIN_PIECE)}\n\n- item`, [0, MIN_PIECE + 2], false],
    ["an ordered item after the break is not exact", `${para(MIN_PIECE)}\n\n2. item`, [0, MIN_PIECE + 2], false],
    ["an indented line after the break is not exact", `${para(MIN_PIECE)}\n\n    code`, [0, MIN_PIECE + 2], false],
    ["a link definition anywhere is not exact", `${para(MIN_PIECE)}\n\nnext\n\n[x]: https://example.com`, [0, MIN_PIECE + 2], false],
    ["no cut inside a code fence", `\`\`\`\n${para(MIN_PIECE)}\n\nstill code\n\`\`\`\n`, [0], true],
    ["a cut after the fence closes", `\`\`\`\n${para(MIN_PIECE)}\n\`\`\`\n\nafter`, [0, MIN_PIECE + 10], true],
    ["a runaway line is cut at MAX_PIECE", "x".repeat(2 * MAX_PIECE + 5), [0, MAX_PIECE, 2 * MAX_PIECE], false],
    ["a runaway line with spaces is cut after a space", `${"y".repeat(MAX_PIECE - 10)} ${"z".repeat(20)}`, [0, MAX_PIECE - 9], false],
  ])("%s", (_, text, starts, exact) => {
    const p = pieces(text);
    expect({ starts: p.starts, exact: p.exact }).toEqual({ starts, exact });
    // Only runaway cuts are hard ones.
    expect(p.hard.size > 0).toBe(_.startsWith("a runaway"));
  });

  it("never cuts a code fence that runs away", () => {
    const text = `intro\n\n\`\`\`\n${"x".repeat(3 * MAX_PIECE)}\n`;
    expect(pieces(text).starts).toEqual([0]);
  });

  it("cuts a runaway paragraph after a code fence, not in it", () => {
    const fence = `\`\`\`\n${"c".repeat(MAX_PIECE - 100)}\n\`\`\`\n`;
    const text = `${fence}${"x".repeat(MAX_PIECE)}`;
    const { starts } = pieces(text);
    expect(starts.length).toBeGreaterThan(1);
    for (const s of starts.slice(1)) expect(s).toBeGreaterThanOrEqual(fence.length);
  });

  it("keeps every cut as the text grows (prefix-stable)", () => {
    const doc = [
      para(3000), "", "- a list", "- of items", "", para(900), "", "```js", para(5000, "code"), "```", "",
      "x".repeat(3 * MAX_PIECE), "", para(2500), " indented", "", `${"w ".repeat(4000)}`, "", "tail",
    ].join("\n");
    let prev: number[] = [0];
    for (let n = 0; n <= doc.length; n += 97) {
      const { starts } = pieces(doc.slice(0, n));
      expect(starts.slice(0, prev.length)).toEqual(prev);
      prev = starts;
    }
  });

  it("when exact, the pieces render what the whole renders", () => {
    const doc = [
      "# Title", "", para(MIN_PIECE + 150), "", "## Section", "", "- one", "- two", "", para(MIN_PIECE + 50), "", "```go", "x := 1", "", "y := 2", "```", "",
      "> quoted", "", para(MIN_PIECE + 250), "", "| a | b |", "|---|---|", "| 1 | 2 |", "", "last",
    ].join("\n");
    const p = pieces(doc);
    expect(p.exact).toBe(true);
    expect(p.starts.length).toBeGreaterThan(2);
    const joined = split(doc).map((t) => renderMarkdown(t)).join("");
    expect(joined).toBe(renderMarkdown(doc));
  });

  it("cuts a growing text as it would cut it whole, reading only what was added", () => {
    const doc = [
      para(3000), "", "- a list", "- of items", "", para(1500), "", "```js", para(5000, "code"), "```", "",
      "x".repeat(5 * MAX_PIECE), "", para(2500), " indented", "", `${"w ".repeat(4000)}`, "", "``", "[ref]: https://example.com", "",
      `${"y".repeat(MAX_PIECE - 10)}\r[x]: https://example.com`, "", "1.", "", "tail", "``````", "z".repeat(3 * MAX_PIECE),
    ].join("\n");
    // A seeded LCG: failures reproduce.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cutter = new PieceCutter();
    for (let n = 0; n <= doc.length; n += 1 + Math.floor(rnd() * 300)) {
      const got = cutter.cut(doc.slice(0, n));
      const want = pieces(doc.slice(0, n));
      expect({ starts: got.starts, hard: [...got.hard], exact: got.exact }).toEqual({ starts: want.starts, hard: [...want.hard], exact: want.exact });
    }
    // Another text (a block replaced, not grown) starts over.
    expect(cutter.cut("short\n\nagain").starts).toEqual(pieces("short\n\nagain").starts);
  });
});
