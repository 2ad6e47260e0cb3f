import "@testing-library/react";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

// jsdom has no layout. virtua needs a ResizeObserver and scrollTo; this one
// reports every observed element as 800×800 so the virtual list has a
// viewport and renders its first rows (item sizes stay estimated).
class FixedResizeObserver {
  constructor(private readonly cb: ResizeObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.cb([{ target, contentRect: { width: 800, height: 800 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver),
    );
  }
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= FixedResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollTo ??= function scrollTo() {};
Element.prototype.scrollBy ??= function scrollBy() {};
