import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

// Read from disk: Vitest stubs CSS imports.
const css = readFileSync(resolve(__dirname, "tokens.css"), "utf8");

// WCAG 2.x relative luminance and contrast ratio.
function lum(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
}
function ratio(a: string, b: string): number {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

function block(selector: string): Record<string, string> {
  const i = css.indexOf(selector);
  expect(i, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(css.indexOf("{", i) + 1, css.indexOf("}", i));
  const vars: Record<string, string> = {};
  for (const m of body.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)) vars[m[1]!] = m[2]!;
  return vars;
}

// [foreground, background] pairs that carry text (AA: 4.5:1).
const TEXT_PAIRS: [string, string][] = [
  ["text", "bg"], ["text-2", "bg"], ["text-3", "bg"], ["text-3", "bg-sidebar"], ["text-2", "bg-sidebar"],
  ["text-3", "bg-raised"], ["text", "bg-active"], ["text-2", "bg-hover"], ["accent", "bg"], ["accent-text", "accent"],
  ["running", "running-soft"], ["needs", "needs-soft"], ["ok", "ok-soft"], ["fail", "fail-soft"], ["muted", "muted-soft"],
  ["running", "bg"], ["needs", "bg"], ["ok", "bg"], ["fail", "bg"], ["text", "needs-soft"], ["text-2", "needs-soft"], ["text", "fail-soft"],
  ["text", "code-bg"],
  // The danger button (Delete) and error text inside dialogs.
  ["accent-text", "fail"], ["fail", "bg-raised"],
];

describe("theme contrast (WCAG AA)", () => {
  const themes = { light: block(":root {"), dark: block(':root[data-theme="dark"] {') };
  for (const [name, v] of Object.entries(themes)) {
    it.each(TEXT_PAIRS)(`${name}: --%s on --%s is at least 4.5:1`, (fg, bg) => {
      expect(v[fg], fg).toBeDefined();
      expect(v[bg], bg).toBeDefined();
      expect(ratio(v[fg]!, v[bg]!)).toBeGreaterThanOrEqual(4.5);
    });
    it(`${name}: focus ring is at least 3:1 against the page`, () => {
      expect(ratio(v.focus!, v.bg!)).toBeGreaterThanOrEqual(3);
    });
  }

  // A link button (Edit, Delete, Undo, Show all) sits on the page, a
  // raised card and code: its colour is a text colour there, not the one
  // for text on an accent fill (white on white once, in the review).
  it.each(Object.entries(themes))("%s: a link button reads on the page, a card and code", (_name, v) => {
    const wb = readFileSync(resolve(__dirname, "workbench.css"), "utf8");
    const rule = /\.link-btn \{[^}]*\bcolor:\s*var\(--([\w-]+)\)/.exec(wb);
    expect(rule, ".link-btn's color").not.toBeNull();
    const fg = v[rule![1]!];
    expect(fg, rule![1]).toBeDefined();
    for (const bg of ["bg", "bg-raised", "code-bg"]) expect(ratio(fg!, v[bg]!), bg).toBeGreaterThanOrEqual(4.5);
  });

  // Checkboxes and disabled filled buttons are the app's own in both
  // themes: WebKitGTK drew a bright white box in dark, and a faded accent
  // button still looked enabled there.
  const app = readFileSync(resolve(__dirname, "app.css"), "utf8");
  function rule(selector: string): Record<string, string> {
    const i = app.indexOf(selector + " {");
    expect(i, selector).toBeGreaterThanOrEqual(0);
    const body = app.slice(app.indexOf("{", i) + 1, app.indexOf("}", i));
    const props: Record<string, string> = {};
    for (const m of body.matchAll(/([\w-]+):\s*[^;]*?var\(--([\w-]+)\)/g)) props[m[1]!] = m[2]!;
    return props;
  }
  it.each(Object.entries(themes))("%s: a checkbox is drawn by the app and reads on every surface", (_name, v) => {
    const box = rule('input[type="checkbox"]:not(.switch)');
    expect(app).toMatch(/input\[type="checkbox"\]:not\(\.switch\) \{[^}]*appearance: none/);
    for (const bg of ["bg", "bg-raised", "bg-sidebar", box.background!]) {
      expect(ratio(v[box.border!]!, v[bg]!), `edge on ${bg}`).toBeGreaterThanOrEqual(3);
    }
    const checked = rule('input[type="checkbox"]:not(.switch):checked');
    const tick = rule('input[type="checkbox"]:not(.switch)::after');
    expect(ratio(v[tick["border-left"]!]!, v[checked.background!]!), "tick on fill").toBeGreaterThanOrEqual(4.5);
    expect(ratio(v[checked.background!]!, v.bg!), "checked fill on the page").toBeGreaterThanOrEqual(3);
  });
  it.each(Object.entries(themes))("%s: a disabled primary button is grey, not a faded accent", (_name, v) => {
    const off = rule(".btn-primary:disabled, .btn-danger:disabled");
    expect(off.background).not.toBe("accent");
    expect(ratio(v[off.color!]!, v[off.background!]!), "label").toBeGreaterThanOrEqual(4.5);
    // It stands out from the page much less than an enabled one does.
    expect(ratio(v[off.background!]!, v.bg!)).toBeLessThan(ratio(v.accent!, v.bg!) / 2);
  });

  it("the OS-dark block matches the explicit dark theme", () => {
    expect(block(':root:not([data-theme="light"]) {')).toEqual(themes.dark);
  });
});
