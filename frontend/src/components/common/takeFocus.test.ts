import { afterEach, describe, expect, it } from "vitest";
import { mayTakeFocus } from "./takeFocus";

afterEach(() => (document.body.innerHTML = ""));

function focused(html: string, sel: string, value?: string) {
  document.body.innerHTML = html;
  const el = document.querySelector<HTMLElement>(sel)!;
  if (value !== undefined) (el as HTMLTextAreaElement).value = value;
  el.focus();
}

describe("mayTakeFocus", () => {
  it.each([
    { name: "nothing focused", html: "<p>x</p>", sel: "", value: undefined, want: true },
    { name: "empty composer", html: '<textarea aria-label="Message"></textarea>', sel: "textarea", value: "", want: true },
    { name: "composer with a draft", html: '<textarea aria-label="Message"></textarea>', sel: "textarea", value: "half a thought", want: false },
    { name: "another text field", html: '<input aria-label="Session title">', sel: "input", value: "", want: false },
    { name: "inside a dialog", html: '<div role="dialog"><button>x</button></div>', sel: "button", value: undefined, want: false },
    { name: "a button in the page", html: "<button>x</button>", sel: "button", value: undefined, want: true },
  ])("$name", ({ html, sel, value, want }) => {
    if (sel) focused(html, sel, value);
    else document.body.innerHTML = html;
    expect(mayTakeFocus()).toBe(want);
  });
});
