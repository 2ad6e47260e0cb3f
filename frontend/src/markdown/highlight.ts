// Syntax highlighting is loaded lazily (its own chunk) and applied only to
// complete code blocks, never to a block still streaming.
type Highlight = (code: string, lang: string) => string;

let ready: Highlight | undefined;
let loading: Promise<Highlight> | undefined;
const waiters = new Set<() => void>();

export function highlighter(): Highlight | undefined {
  if (!ready) void loadHighlighter();
  return ready;
}

/** Called once the highlighter loaded, so rendered blocks can refresh. */
export function onHighlighterReady(cb: () => void): () => void {
  if (ready) return () => {};
  waiters.add(cb);
  return () => waiters.delete(cb);
}

export function loadHighlighter(): Promise<Highlight> {
  loading ??= import("./languages").then(({ hljs }) => {
    ready = (code, lang) => {
      const l = lang.trim().toLowerCase();
      if (!l || !hljs.getLanguage(l)) return ""; // markdown-it escapes it
      try {
        return hljs.highlight(code, { language: l, ignoreIllegals: true }).value;
      } catch {
        return "";
      }
    };
    waiters.forEach((w) => w());
    waiters.clear();
    return ready;
  });
  return loading;
}
