// Characters that change how text reads without showing themselves: bidi
// controls (an RLO turns "gnp.exe" into "exe.png" on screen), zero-width
// characters, C0/C1 controls and Unicode tag characters. Approvals are the
// product's safeguard — what is shown must be what is approved — so
// commands, paths, titles and Markdown show each of them visibly as
// <U+XXXX> (docs/ARCHITECTURE.md §Security, display).

// Tab, newline and carriage return are layout, not hidden content.
const INVISIBLE_SOURCE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/.source;
// A fresh global regexp per use: a shared one carries lastIndex between
// calls (and matchAll copies it), which skips characters.
const invisible = () => new RegExp(INVISIBLE_SOURCE, "g");
const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE);

const NAMES: Record<number, string> = {
  0x200b: "zero-width space",
  0x200c: "zero-width non-joiner",
  0x200d: "zero-width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x061c: "Arabic letter mark",
  0xfeff: "zero-width no-break space",
  0x00ad: "soft hyphen",
  0x001b: "escape",
};

/** "U+202E" for a character. */
export function codeOf(ch: string): string {
  return "U+" + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
}

/** A person's name for the character, for a tooltip. */
export function describeInvisible(ch: string): string {
  const n = NAMES[ch.codePointAt(0)!];
  return n ? `${n} (${codeOf(ch)})` : `invisible or control character (${codeOf(ch)})`;
}

/** True when s holds a character that would not show as itself. */
export function hasInvisible(s: string | undefined | null): boolean {
  if (!s) return false;
  return ANY_INVISIBLE.test(s);
}

/** s with each such character replaced by the visible text <U+XXXX>. */
export function revealInvisible(s: string): string {
  return s.replace(invisible(), (ch) => `<${codeOf(ch)}>`);
}

export type Piece = { text: string } | { hidden: string };

/** s cut into plain text and hidden characters, in order. */
export function splitInvisible(s: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const m of s.matchAll(invisible())) {
    if (m.index! > last) out.push({ text: s.slice(last, m.index) });
    out.push({ hidden: m[0] });
    last = m.index! + m[0].length;
  }
  if (last < s.length) out.push({ text: s.slice(last) });
  return out;
}
