// The fake agent's `hostile` scenario (testkit/fakeagent/scenarios) is the
// project's shared hostile corpus: every text it streams must stay inert
// in every place the UI shows it.
import { render } from "@testing-library/react";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BlockView } from "../components/session/BlockView";
import { ToolCard } from "../components/session/ToolCard";
import { renderMarkdown } from "./render";

const file = resolve(__dirname, "../../../testkit/fakeagent/scenarios/hostile.json");
const present = existsSync(file);

interface Step {
  title?: string;
  thought?: string;
  text?: string;
  tool?: { id: string; title: string; kind: string; input: unknown; output: string };
}

function assertInert(rendered: Element) {
  // Our own icons are lucide SVGs; anything else must not be there.
  const root = rendered.cloneNode(true) as Element;
  root.querySelectorAll("svg.lucide").forEach((el) => el.remove());
  expect(root.querySelectorAll("script, iframe, object, embed, svg, img, form, style, math").length).toBe(0);
  for (const el of root.querySelectorAll("*")) {
    for (const a of el.attributes) expect(a.name.startsWith("on") || a.name === "style" || a.name === "src", `${el.tagName}[${a.name}]`).toBe(false);
    const href = el.getAttribute("href");
    if (href !== null) expect(href).toMatch(/^(https?:\/\/|mailto:)/);
  }
}

describe.skipIf(!present)("the hostile scenario", () => {
  const steps: Step[] = present ? (JSON.parse(readFileSync(file, "utf8")) as { steps: Step[] }).steps : [];
  const actions = { approve: async () => undefined, clarify: async () => undefined };

  it("has text to test", () => {
    expect(steps.some((s) => s.text)).toBe(true);
  });

  it("renders its Markdown inert, with and without highlighting", () => {
    for (const s of steps) {
      for (const t of [s.text, s.thought, s.title].filter((x): x is string => !!x)) {
        for (const highlight of [false, true]) {
          const d = document.createElement("div");
          d.innerHTML = renderMarkdown(t, { highlight });
          assertInert(d);
        }
      }
    }
  });

  it("stays inert as transcript blocks: text, reasoning and tool cards", () => {
    for (const s of steps) {
      if (s.text) assertInert(render(<BlockView runId="r" live actions={actions} block={{ kind: "text", key: "t", seq: 1, text: s.text, done: true }} />).container);
      if (s.thought) assertInert(render(<BlockView runId="r" live actions={actions} block={{ kind: "reasoning", key: "r", seq: 1, text: s.thought, done: false }} />).container);
      if (s.tool) {
        const { container } = render(
          <ToolCard block={{ kind: "tool", key: "k", seq: 1, toolCallId: s.tool.id, name: "tool", title: s.tool.title, toolKind: s.tool.kind, input: s.tool.input, output: s.tool.output, truncated: false, status: "completed" }} defaultOpen />,
        );
        assertInert(container);
        // Shown, as text.
        expect(container.querySelector(".tool-line")?.textContent).toContain("<script>");
        expect(container.textContent).toContain("alert('tool-output')");
      }
    }
  });
});
