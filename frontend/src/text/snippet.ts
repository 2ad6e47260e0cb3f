// Search snippets are excerpts of Markdown cut at arbitrary points: their
// **strong** and `code` spans read as formatting, never as raw markers, and
// a marker whose partner was cut off is dropped. Text stays text (React
// escapes it); no HTML is ever built from a snippet. Matches («…», from
// backend/journal/search.go) can sit inside or across those spans.
import { snippetParts } from "../store/jump";

export interface SnippetSeg {
  text: string;
  mark: boolean;
  strong: boolean;
  code: boolean;
}

type Tok = { kind: "text"; text: string; mark: boolean } | { kind: "**" | "`"; mark: boolean; keep: boolean };

/** Which markers of one kind pair up: with an odd count, the one the cut orphaned is dropped. */
function pairUp(toks: Tok[], kind: "**" | "`") {
  const at = toks.flatMap((t, i) => (t.kind === kind ? [i] : []));
  if (at.length % 2 === 0) return;
  // A snippet cut mid-span starts with a closer (text then marker); otherwise the last opener lost its end.
  const first = at[0]!;
  const before = toks.slice(0, first).some((t) => t.kind === "text" && t.text.trim() !== "");
  const after = toks[first + 1];
  const closerLike = before && (!after || (after.kind === "text" && /^\s/.test(after.text)));
  const drop = closerLike ? first : at[at.length - 1]!;
  (toks[drop] as { keep: boolean }).keep = false;
}

export function snippetSegments(snippet: string): SnippetSeg[] {
  const toks: Tok[] = [];
  for (const p of snippetParts(snippet)) {
    for (const piece of p.text.split(/(\*\*|`)/)) {
      if (piece === "**" || piece === "`") toks.push({ kind: piece, mark: p.mark, keep: true });
      else if (piece) toks.push({ kind: "text", text: piece, mark: p.mark });
    }
  }
  pairUp(toks, "`");
  // Stars inside code are text: turn them so before pairing the rest.
  let inCode = false;
  toks.forEach((t, i) => {
    if (t.kind === "`" && t.keep) inCode = !inCode;
    else if (t.kind === "**" && inCode) toks[i] = { kind: "text", text: "**", mark: t.mark };
  });
  pairUp(toks, "**");
  const out: SnippetSeg[] = [];
  let strong = false;
  let code = false;
  const push = (text: string, mark: boolean) => {
    const last = out[out.length - 1];
    if (last && last.mark === mark && last.strong === strong && last.code === code) last.text += text;
    else out.push({ text, mark, strong, code });
  };
  for (const t of toks) {
    if (t.kind === "text") push(t.text, t.mark);
    else if (!t.keep) continue;
    else if (t.kind === "`") code = !code;
    else strong = !strong;
  }
  return out;
}
