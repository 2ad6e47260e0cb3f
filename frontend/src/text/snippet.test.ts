import { describe, expect, it } from "vitest";
import { snippetSegments } from "./snippet";

const show = (s: string) =>
  snippetSegments(s)
    .map((g) => `${g.strong ? "B(" : ""}${g.code ? "C(" : ""}${g.mark ? "[" : ""}${g.text}${g.mark ? "]" : ""}${g.code ? ")" : ""}${g.strong ? ")" : ""}`)
    .join("|");

describe("snippetSegments", () => {
  it.each([
    ["plain", "just text", "just text"],
    ["strong", "a **bold** word", "a |B(bold)| word"],
    ["code", "run `make test` now", "run |C(make test)| now"],
    ["match inside strong", "the **«plat»ypus** swims", "the |B([plat])|B(ypus)| swims"],
    ["strong across a match", "**fix «build»** done", "B(fix )|B([build])| done"],
    ["cut before the closer", "ends mid **bold", "ends mid bold"],
    ["cut after the opener", "old text** then more", "old text then more"],
    ["stars inside code stay", "`a ** b` x", "C(a ** b)| x"],
    ["markup is not HTML", "<b>**x**</b>", "<b>|B(x)|</b>"],
  ])("%s", (_, input, want) => {
    expect(show(input)).toBe(want);
  });
});
