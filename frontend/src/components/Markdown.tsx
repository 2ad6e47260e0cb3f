import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { copyText } from "./copy";
import { onHighlighterReady } from "../markdown/highlight";
import { isSafeUrl, renderMarkdown } from "../markdown/render";
import { openExternal } from "../app/external";

/**
 * Splits streaming text at its last blank line outside a code fence: the
 * head no longer changes as tokens arrive, so only the tail is re-rendered
 * each frame. (A finished block is rendered whole, so nothing that spans the
 * split — a loose list, a late link reference — stays split.)
 */
export function splitStable(text: string): [head: string, tail: string] {
  let inFence = false;
  let cut = 0;
  let pos = 0;
  let prevBlank = false;
  while (pos <= text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const blank = line.trim() === "";
    if (blank && !inFence && !prevBlank && pos > 0 && nl !== -1) cut = pos;
    prevBlank = blank;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return [text.slice(0, cut), text.slice(cut)];
}

/**
 * Past this many characters a block renders its beginning and the rest on
 * request: a multi-megabyte answer stalled the window for seconds at a time.
 */
export const LAZY_CHARS = 100_000;

/** Streaming text: a settled head and a live tail, each memoized on its string. */
export const Markdown = memo(function Markdown({ text, done, className }: { text: string; done: boolean; className?: string }) {
  const [all, setAll] = useState(false);
  if (!all && text.length > LAZY_CHARS) {
    const nl = text.lastIndexOf("\n", LAZY_CHARS);
    const head = text.slice(0, nl > 0 ? nl : LAZY_CHARS);
    const kb = Math.ceil((text.length - head.length) / 1024);
    return (
      <div className={className}>
        <MarkdownHTML text={head} done={false} />
        <button type="button" className="md-more" onClick={() => setAll(true)}>
          Show the rest ({kb} KB more)
        </button>
      </div>
    );
  }
  if (done) return <MarkdownHTML text={text} done className={className} />;
  const [head, tail] = splitStable(text);
  return (
    <div className={`md-stream ${className ?? ""}`}>
      {head && <MarkdownHTML text={head} done={false} />}
      <MarkdownHTML text={tail} done={false} />
    </div>
  );
});

/**
 * Sanitized Markdown (see markdown/render.ts). Links never navigate the
 * webview: a click opens the URL in the system browser.
 */
const MarkdownHTML = memo(function MarkdownHTML({ text, done, className }: { text: string; done: boolean; className?: string }) {
  const [hlTick, setHlTick] = useState(0);
  useEffect(() => (done ? onHighlighterReady(() => setHlTick((t) => t + 1)) : undefined), [done]);
  const html = useMemo(() => {
    void hlTick; // render again once the highlighter has loaded its languages
    return renderMarkdown(text, { highlight: done });
  }, [text, done, hlTick]);
  const box = useRef<HTMLDivElement>(null);
  // A copy button on every finished code block (plain DOM: the HTML is the
  // sanitizer's output, set as a whole).
  useLayoutEffect(() => {
    if (!done || !box.current) return;
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
  }, [html, done]);
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
  // Middle-click would open a new webview window: swallow it too.
  const onAux = (e: MouseEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest("a")) e.preventDefault();
  };
  return <div ref={box} className={`md ${className ?? ""}`} onClick={onClick} onAuxClick={onAux} dangerouslySetInnerHTML={{ __html: html }} />;
});
