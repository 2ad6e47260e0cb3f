// Agent output becomes HTML only through here. Script injection in the
// webview is code execution (bound Go methods start processes), so:
// markdown-it with raw HTML off, then DOMPurify with an allow-list of tags
// and attributes, no images (no data:/SVG payloads, no remote fetches), and
// links limited to http(s)/mailto that are opened outside the webview.
import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import { revealInvisible } from "../text/invisible";
import { highlighter } from "./highlight";

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

// Images would fetch remote URLs or carry data:/SVG payloads: show them as
// plain text naming the image instead.
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx]!;
  const alt = t.children?.map((c) => c.content).join("") ?? "";
  return `<span class="md-img">[image${alt ? `: ${md.utils.escapeHtml(alt)}` : ""}]</span>`;
};

// A link markdown-it refuses (javascript:, data:, vbscript:, file:) is
// already rendered as text; this narrows what it accepts to what we open.
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;
md.validateLink = (url: string) => SAFE_URL.test(url.trim());

const ALLOWED_TAGS = [
  "a", "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote",
  "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
  "table", "thead", "tbody", "tr", "th", "td", "span",
];
const ALLOWED_ATTR = ["href", "title", "class", "start"];

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (!SAFE_URL.test(href)) node.removeAttribute("href");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
      // Only our own classes: highlight.js token classes and language-*.
      const cls = node.getAttribute("class");
      if (cls !== null && !/^(?:(?:hljs[\w-]*|language-[\w+#-]+|md-img)\s*)+$/.test(cls)) node.removeAttribute("class");
    });
  }
  return DOMPurify;
}

export function sanitize(html: string): string {
  return purifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: [...ALLOWED_ATTR, "rel"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true,
  });
}

export interface RenderOptions {
  /** Highlight code blocks: only once a block is complete. */
  highlight?: boolean;
}

export function renderMarkdown(text: string, opts: RenderOptions = {}): string {
  const hl = opts.highlight ? highlighter() : undefined;
  md.set({
    highlight: hl ? (code: string, lang: string) => hl(code, lang) : null,
  });
  // Bidi controls and other invisible characters would reorder or hide
  // what the text says (in code blocks and link text too): they are shown
  // as the plain text <U+XXXX>, which markdown-it escapes.
  return sanitize(md.render(revealInvisible(text)));
}

/** True for URLs the app opens (externally); everything else is inert. */
export function isSafeUrl(url: string): boolean {
  return SAFE_URL.test(url.trim());
}
