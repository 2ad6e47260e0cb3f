import { act, fireEvent, render } from "@testing-library/react";
import { forwardRef, useImperativeHandle, useRef, type ComponentProps, type Ref } from "react";
import { describe, expect, it, vi } from "vitest";
import type { VListHandle } from "virtua";
import { Transcript, type Item } from "./Transcript";

// Where the transcript asks virtua to scroll: jsdom lays nothing out, so the
// calls are the observable (issue 23.8).
const scrolls: [number, string | undefined][] = [];
vi.mock("virtua", async (orig) => {
  const real = await orig<typeof import("virtua")>();
  const VList = forwardRef(function VList(p: ComponentProps<typeof real.VList>, ref: Ref<VListHandle>) {
    const inner = useRef<VListHandle>(null);
    useImperativeHandle(ref, () => {
      const h = inner.current!;
      return new Proxy(h, {
        get(t, k) {
          if (k === "scrollToIndex") return (i: number, o?: { align?: string }) => (scrolls.push([i, o?.align]), t.scrollToIndex(i, o as never));
          const v = Reflect.get(t, k);
          return typeof v === "function" ? v.bind(t) : v;
        },
      });
    });
    return <real.VList ref={inner} {...p} />;
  });
  return { ...real, VList };
});

const noop = { approve: async () => undefined, clarify: async () => undefined };
const rows = (keys: string[]): Item[] => keys.map((k) => ({ key: k, kind: "user", text: k }));

describe("a search hit stays in view (23.8)", () => {
  it("re-centres the hit when rows come in above it after the jump, until the person scrolls", async () => {
    const before = rows(["a", "b", "hit", "c", "d"]);
    const { rerender } = render(<Transcript items={before} actions={noop} onOlder={() => {}} focus={{ key: "hit", nonce: 1 }} />);
    await act(async () => {});
    expect(scrolls.at(-1)).toEqual([2, "center"]);
    // Older turns above the hit unfold into several rows each.
    scrolls.length = 0;
    const after = rows(["a", "a1", "a2", "b", "b1", "hit", "c", "d"]);
    rerender(<Transcript items={after} actions={noop} onOlder={() => {}} focus={{ key: "hit", nonce: 1 }} />);
    await act(async () => {});
    expect(scrolls).toContainEqual([5, "center"]);
    expect(scrolls.some(([i, a]) => a === "end" && i === after.length - 1)).toBe(false);
    // The person scrolls: the transcript no longer holds them at the hit.
    fireEvent.wheel(document.querySelector("[aria-label='Transcript']")!);
    scrolls.length = 0;
    rerender(<Transcript items={rows(["z", ...after.map((r) => r.key)])} actions={noop} onOlder={() => {}} focus={{ key: "hit", nonce: 1 }} />);
    await act(async () => {});
    expect(scrolls.some(([, a]) => a === "center")).toBe(false);
  });
});
