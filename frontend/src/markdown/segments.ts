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
const NON_SPACE = /\S/g;
/** A line's first characters decide what it opens (fence, list item, indent). */
const HEAD = 64;

/** The pieces of `text` (see Pieces). */
export function pieces(text: string): Pieces {
  return new PieceCutter().cut(text);
}

/** The cutting state after some lines. */
interface State {
  starts: number[];
  hard: Set<number>;
  /** Exact so far (link definitions of the lines seen included). */
  exact: boolean;
  start: number; // the open piece
  fence: string; // the open fence's marker, "" outside one
  floor: number; // a runaway cut falls after the last fence line
  prevBlank: boolean;
}

/** A runaway line's cuts so far, to go on from while it grows. */
interface Runaway {
  pos: number;
  entry: number;
  floor: number;
  cuts: number[];
  start: number;
}

/**
 * pieces() for a text that grows (a streaming block): each call reads only
 * the lines added since the last one, and a runaway last line goes on from
 * its last cut, so a frame's work does not grow with the block
 * (docs/ARCHITECTURE.md §Session view, "A flood stays responsive"). Any
 * other text starts over. Gives exactly what pieces(text) gives.
 */
export class PieceCutter {
  private text = "";
  private s: State = fresh();
  /** Where the last line (not yet ended by a newline) starts. */
  private pos = 0;
  private runaway?: Runaway;

  cut(text: string): Pieces {
    if (text.length < this.text.length || !text.startsWith(this.text)) {
      this.s = fresh();
      this.pos = 0;
      this.runaway = undefined;
    }
    this.text = text;
    for (let nl = text.indexOf("\n", this.pos); nl !== -1; nl = text.indexOf("\n", this.pos)) {
      line(this.s, text, this.pos, nl, nl + 1);
      if (LINK_DEF.test(text.slice(this.pos, nl))) this.s.exact = false;
      this.pos = nl + 1;
      this.runaway = undefined;
    }
    // The last line may still change what it decides as it grows: it is
    // read on a copy, and only its runaway cuts (final once made) are kept.
    const s: State = { ...this.s, starts: [...this.s.starts], hard: new Set(this.s.hard) };
    const from = this.pos;
    if (from < text.length) this.runaway = line(s, text, from, text.length, text.length, this.runaway);
    let exact: boolean | undefined;
    return {
      starts: s.starts,
      hard: s.hard,
      // Only a finished block asks: the last line's link test is not paid per frame.
      get exact() {
        return (exact ??= s.exact && !(from < text.length && LINK_DEF.test(text.slice(from))));
      },
    };
  }
}

function fresh(): State {
  return { starts: [0], hard: new Set(), exact: true, start: 0, fence: "", floor: 0, prevBlank: false };
}

/**
 * Reads the line text[pos, end) into the state (`after`: where the next
 * line starts, or the text's end). Returns a runaway line's cuts.
 */
function line(s: State, text: string, pos: number, end: number, after: number, resume?: Runaway): Runaway | undefined {
  NON_SPACE.lastIndex = pos;
  const ns = NON_SPACE.exec(text);
  const blank = !ns || ns.index >= end;
  const head = text.slice(pos, Math.min(end, pos + HEAD));
  // A paragraph break: the first line with text after blank lines.
  if (!blank && s.prevBlank && s.fence === "" && pos - s.start >= MIN_PIECE) {
    if (/^[ \t]/.test(head) || LIST_ITEM.test(head)) s.exact = false;
    s.starts.push((s.start = pos));
  }
  let out: Runaway | undefined;
  const f = FENCE.exec(head) && FENCE.exec(text.slice(pos, end));
  if (f || s.fence !== "") {
    if (f && s.fence === "") s.fence = f[1]!;
    else if (f && f[1]![0] === s.fence[0] && f[1]!.length >= s.fence.length && text.slice(pos, end).trim() === f[1]) s.fence = "";
    s.floor = after;
  } else if (!blank) {
    // A runaway piece: cut where its text is already final.
    const entry = s.start;
    const r = resume && resume.pos === pos && resume.entry === entry && resume.floor === s.floor ? resume : undefined;
    const cuts = r ? [...r.cuts] : [];
    if (r) {
      for (const c of cuts) s.starts.push(c), s.hard.add(c);
      if (cuts.length > 0) s.exact = false;
      s.start = r.start;
    }
    while (end - s.start > MAX_PIECE) {
      const lo = Math.max(s.start, s.floor);
      s.exact = false;
      s.starts.push((s.start = lo >= s.start + MAX_PIECE ? lo : hardCut(text, lo, s.start + MAX_PIECE)));
      s.hard.add(s.start);
      cuts.push(s.start);
    }
    out = { pos, entry, floor: s.floor, cuts, start: s.start };
  }
  s.prevBlank = blank;
  return out;
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
