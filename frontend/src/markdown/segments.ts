// Where a streaming Markdown block is cut into pieces that are rendered and
// laid out on their own (docs/ARCHITECTURE.md §Session view, "A flood stays responsive").
// The browser lays out a changed paragraph whole: re-rendering a growing
// 100 KB block every frame cost tens of milliseconds of layout alone. Cut
// into pieces, only the last piece changes as tokens arrive; the others keep
// their DOM and their layout.
//
// Cuts are prefix-stable: where a cut falls depends only on the text before
// it (and a little after, already received), so appending never moves an
// earlier cut and a settled piece's text never changes.

/**
 * A piece closes at a paragraph break once it holds this much. The open
 * piece is parsed, sanitized and laid out again on every update, so it is
 * kept small: a 4 KB piece cost twice a 2 KB one's layout per frame.
 */
export const MIN_PIECE = 1024;
/**
 * A piece with no paragraph break (a runaway line, a flood) is cut once it
 * exceeds this, at a line end or a space in its second half when there is
 * one. Not inside a code fence.
 */
export const MAX_PIECE = 2048;

export interface Pieces {
  /** Start offset of each piece; the first is 0. */
  starts: number[];
  /** The starts that cut a runaway paragraph (the piece continues it). */
  hard: Set<number>;
  /**
   * Rendering the pieces one by one gives what rendering the whole text
   * gives: every cut is at a paragraph break before a line that cannot
   * continue what came before (not indented, not a list item), and no link
   * reference definition reaches across pieces. When false, a finished
   * block is rendered whole.
   */
  exact: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^([-+*]|\d{1,9}[.)])([ \t]|$)/;
const LINK_DEF = /^ {0,3}\[[^\]\n]+\]:/m;

/** The pieces of `text` (see Pieces). */
export function pieces(text: string): Pieces {
  const starts = [0];
  const hard = new Set<number>();
  let exact = !LINK_DEF.test(text);
  let start = 0; // the open piece
  let fence = ""; // the open fence's marker, "" outside one
  let floor = 0; // a runaway cut falls after the last fence line
  let prevBlank = false;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    const blank = line.trim() === "";
    // A paragraph break: the first line with text after blank lines.
    if (!blank && prevBlank && fence === "" && pos - start >= MIN_PIECE) {
      if (/^[ \t]/.test(line) || LIST_ITEM.test(line)) exact = false;
      starts.push((start = pos));
    }
    const f = FENCE.exec(line);
    if (f || fence !== "") {
      if (f && fence === "") fence = f[1]!;
      else if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = "";
      floor = nl === -1 ? text.length : nl + 1;
    } else if (!blank) {
      // A runaway piece: cut where its text is already final.
      while (end - start > MAX_PIECE) {
        const lo = Math.max(start, floor);
        exact = false;
        starts.push((start = lo >= start + MAX_PIECE ? lo : hardCut(text, lo, start + MAX_PIECE)));
        hard.add(start);
      }
    }
    prevBlank = blank;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return { starts, hard, exact };
}

/** Where a runaway piece is cut between `from` and `to`: late, at a line end or a space if there is one. */
function hardCut(text: string, from: number, to: number): number {
  const half = from + Math.ceil((to - from) / 2);
  // Searched in the window only: lastIndexOf on the whole text would scan
  // back to its start for every cut of a flood.
  const win = text.slice(half, to);
  const nl = win.lastIndexOf("\n");
  if (nl >= 0) return half + nl + 1;
  const sp = win.lastIndexOf(" ");
  if (sp >= 0) return half + sp + 1;
  return to;
}
