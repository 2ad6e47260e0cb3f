import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode, type RefObject } from "react";
import { copyText } from "./copy";
import { onHighlighterReady } from "../../markdown/highlight";
import { isSafeUrl, renderMarkdown } from "../../markdown/render";
import { PieceCutter } from "../../markdown/segments";
import { openExternal } from "./external";

/**
 * Past this many characters a block renders its beginning and the rest on
 * request: a multi-megabyte answer stalled the window for seconds at a time.
 */
export const LAZY_CHARS = 100_000;

const FENCE_LINE = /^ {0,3}(```|~~~)/m;

/**
 * Markdown text, streaming or finished, rendered in pieces (markdown/segments.ts):
 * as tokens arrive only the last piece re-renders and is laid out again; the
 * settled ones keep their DOM. A finished block whose pieces would not render
 * like the whole is rendered whole once, unless it is huge (past LAZY_CHARS).
 */
export const Markdown = memo(function Markdown({ text, done, className }: { text: string; done: boolean; className?: string }) {
  const [all, setAll] = useState(false);
  const lazy = !all && text.length > LAZY_CHARS;
  // One cutter per block: as text streams in, it reads only what was added.
  const cutter = useRef<PieceCutter>(null);
  const { starts, hard, exact } = useMemo(() => (cutter.current ??= new PieceCutter()).cut(text), [text]);
  // A huge block stays in pieces even when finished: rendered whole it
  // would stall the window, and its height would jump under the reader.
  if (done && !exact && text.length <= LAZY_CHARS) return <MarkdownHTML text={text} done className={className} />;
  let end = text.length;
  if (lazy) {
    const nl = text.lastIndexOf("\n", LAZY_CHARS);
    end = nl > 0 ? nl : LAZY_CHARS;
  }
  const out = [];
  for (let i = 0; i < starts.length && starts[i]! < end; i++) {
    const piece = text.slice(starts[i], Math.min(end, starts[i + 1] ?? end));
    // Highlighting changes only code fences: a finished block re-renders just those pieces.
    const next = starts[i + 1];
    const cut = (hard.has(starts[i]!) ? 1 : 0) | (next !== undefined && next < end && hard.has(next) ? 2 : 0);
    out.push(<Piece key={starts[i]} text={piece} cut={cut} highlight={done && !lazy && FENCE_LINE.test(piece)} />);
  }
  return (
    <Links className={`md md-pieces ${className ?? ""}`}>
      {out}
      {lazy && (
        <button type="button" className="md-more" onClick={() => setAll(true)}>
          Show the rest ({Math.ceil((text.length - end) / 1024)} KB more)
        </button>
      )}
    </Links>
  );
});

/** One piece of a block, memoized on its text. */
const Piece = memo(function Piece({ text, cut, highlight }: { text: string; cut: number; highlight: boolean }) {
  const html = useRendered(text, highlight);
  const box = useRef<HTMLDivElement>(null);
  useCodeCopy(box, html, highlight);
  // `cut`: 1, this piece continues a paragraph the previous one cut; 2, the
  // next piece continues this one's last paragraph (styled as one paragraph).
  const cls = `md-piece${cut & 1 ? " md-cont" : ""}${cut & 2 ? " md-cut" : ""}`;
  return <div ref={box} className={cls} dangerouslySetInnerHTML={{ __html: html }} />;
});

/** The sanitized HTML of `text`, again once the highlighter has loaded. */
function useRendered(text: string, highlight: boolean): string {
  const [hlTick, setHlTick] = useState(0);
  useEffect(() => (highlight ? onHighlighterReady(() => setHlTick((t) => t + 1)) : undefined), [highlight]);
  return useMemo(() => {
    void hlTick; // render again once the highlighter has loaded its languages
    return renderMarkdown(text, { highlight });
  }, [text, highlight, hlTick]);
}

/**
 * A copy button on every finished code block (plain DOM: the HTML is the
 * sanitizer's output, set as a whole). Its clicks are handled by Links.
 */
function useCodeCopy(box: RefObject<HTMLDivElement | null>, html: string, finished: boolean): void {
  useLayoutEffect(() => {
    if (!finished || !box.current) return;
    for (const pre of box.current.querySelectorAll("pre")) {
      if (pre.parentElement?.classList.contains("code-wrap")) continue;
      const wrap = document.createElement("div");
      wrap.className = "code-wrap";
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn btn-ghost btn-sm code-copy";
      b.textContent = "Copy";
      b.setAttribute("aria-label", "Copy code");
      pre.replaceWith(wrap);
      wrap.append(pre, b);
    }
  }, [box, html, finished]);
}

/**
 * Links never navigate the webview: a click opens the URL in the system
 * browser, and a middle-click (a new webview window) is swallowed. A code
 * block's Copy button copies its code.
 */
function Links({ className, children, html, box }: { className: string; children?: ReactNode; html?: string; box?: RefObject<HTMLDivElement | null> }) {
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const copy = (e.target as HTMLElement).closest(".code-copy");
    if (copy) {
      const text = copy.parentElement?.querySelector("pre")?.textContent ?? "";
      void copyText(text.replace(/\n$/, ""), "Code");
      return;
    }
    const a = (e.target as HTMLElement).closest("a");
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute("href") ?? "";
    if (isSafeUrl(href)) openExternal(href);
  };
  const onAux = (e: MouseEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest("a")) e.preventDefault();
  };
  if (html !== undefined) return <div ref={box} className={className} onClick={onClick} onAuxClick={onAux} dangerouslySetInnerHTML={{ __html: html }} />;
  return <div className={className} onClick={onClick} onAuxClick={onAux}>{children}</div>;
}

/** A whole block as one piece of sanitized Markdown (see markdown/render.ts). */
const MarkdownHTML = memo(function MarkdownHTML({ text, done, className }: { text: string; done: boolean; className?: string }) {
  const html = useRendered(text, done);
  const box = useRef<HTMLDivElement>(null);
  useCodeCopy(box, html, done);
  return <Links className={`md ${className ?? ""}`} html={html} box={box} />;
});
