import { describe, expect, it } from "vitest";
import { loadHighlighter } from "./highlight";
import { renderMarkdown, sanitize } from "./render";

import hostile from "./testdata/hostile.md?raw";

function dom(html: string): HTMLElement {
  const d = document.createElement("div");
  d.innerHTML = html;
  return d;
}

function assertInert(root: HTMLElement) {
  for (const el of root.querySelectorAll("*")) {
    expect(["SCRIPT", "IFRAME", "OBJECT", "EMBED", "SVG", "MATH", "STYLE", "FORM", "INPUT", "IMG", "DETAILS", "LINK", "META", "BASE"]).not.toContain(el.tagName.toUpperCase());
    for (const a of el.attributes) {
      expect(a.name.startsWith("on"), `${el.tagName} has ${a.name}`).toBe(false);
      expect(["style", "src", "srcset", "action", "formaction", "xlink:href"]).not.toContain(a.name);
    }
    const href = el.getAttribute("href");
    if (href !== null) expect(href).toMatch(/^(https?:\/\/|mailto:)/);
  }
}

describe("renderMarkdown on the hostile corpus", () => {
  for (const highlight of [false, true]) {
    it(`leaves nothing executable (highlight=${highlight})`, async () => {
      if (highlight) await loadHighlighter();
      const html = renderMarkdown(hostile, { highlight });
      assertInert(dom(html));
      // Hostile markup may survive only as escaped text.
      expect(html).not.toMatch(/<(script|svg|img|iframe|object|style|form|math)/i);
      expect(html).not.toMatch(/<a\s[^>]*href="(?!https?:|mailto:)/i);
    });
  }

  it("each hostile paragraph alone stays inert", () => {
    for (const para of hostile.split(/\n{2,}/)) {
      assertInert(dom(renderMarkdown(para)));
    }
  });

  it("keeps safe links and text", () => {
    const root = dom(renderMarkdown(hostile));
    const hrefs = [...root.querySelectorAll("a")].map((a) => a.getAttribute("href")).filter(Boolean);
    expect(hrefs).toContain("https://safe.example/page");
    expect(hrefs).toContain("https://safe.example/autolink");
    expect(hrefs).toContain("https://safe.example/linkify");
    for (const a of root.querySelectorAll("a[href]")) expect(a.getAttribute("rel")).toContain("noopener");
    // Raw HTML is shown as text, not dropped silently.
    expect(root.textContent).toContain("<script>window.__pwned = 1</script>");
    // Images become a text marker.
    expect(root.textContent).toContain("[image: remote]");
    expect(root.querySelector("pre code")?.textContent).toContain('<script>alert("in a code block');
  });

  it("sanitize strips raw hostile HTML even if it bypassed markdown", () => {
    const root = dom(
      sanitize(
        '<p><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)><svg><script>1</script></svg>' +
          '<a href="data:text/html,1">d</a><span style="x" onmouseover="1" class="evil">s</span></p>',
      ),
    );
    assertInert(root);
    expect(root.querySelector("span")?.getAttribute("class")).toBeNull();
  });
});

describe("highlighting", () => {
  it("highlights complete blocks once loaded and never while streaming", async () => {
    await loadHighlighter();
    const src = "```go\nfunc main() {}\n```\n";
    expect(renderMarkdown(src, { highlight: true })).toContain("hljs-keyword");
    expect(renderMarkdown(src, { highlight: false })).not.toContain("hljs-");
  });
});
