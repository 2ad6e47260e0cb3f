import { ArrowDown, History, Loader2 } from "lucide-react";
import { createContext, memo, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { VList, type VListHandle } from "virtua";
import type { Block, RunView } from "../../store/model";
import { MessageAttachments } from "../composer/Attachments";
import { BlockView, type BlockActions } from "./BlockView";
import { CopyButton } from "../common/copy";
import { Markdown } from "../common/Markdown";
import type { Focus } from "./useJump";
import type { ReviewComment } from "../../contract/wire.gen";
import { ReviewCard } from "../review/ReviewCard";

export type Item =
  | { key: string; kind: "user"; text: string; queuedRun?: string; attachments?: string[]; review?: ReviewComment[] }
  | { key: string; kind: "static"; text: string; runId?: string }
  /** `at`: the block's index in its run's view, where a live row reads its newer versions. */
  | { key: string; kind: "block"; runId: string; block: Block; live: boolean; at?: number }
  | { key: string; kind: "older"; runId: string }
  | { key: string; kind: "wait"; text: string };

/** An older turn shown by its saved text; mounting it (scrolled into view) asks for its events. */
function StaticTurn({ text, runId, onReveal }: { text: string; runId?: string; onReveal?(runId: string): void }) {
  useEffect(() => {
    if (runId) onReveal?.(runId);
  }, [runId, onReveal]);
  return (
    <div className="answer">
      <Markdown text={text} done className="msg-assistant" />
      <CopyButton text={text} what="Answer" className="answer-copy" />
    </div>
  );
}

/**
 * Where a live run's rows read their block as it streams (the run store):
 * the session view re-renders when the transcript changes shape, a row
 * when its own block changes (docs/ARCHITECTURE.md §Session view).
 */
export interface LiveBlocks {
  subscribe(runId: string, cb: () => void): () => void;
  view(runId: string): RunView | undefined;
}

const LiveContext = createContext<LiveBlocks | undefined>(undefined);
/** A live row grew: the transcript keeps the bottom in view if the person is there. */
const GrowContext = createContext<() => void>(() => {});
const noSubscribe = () => () => {};

type BlockItem = Extract<Item, { kind: "block" }>;

/** A block row of a run still going: re-renders itself, alone, as its block changes. */
function LiveBlock({ item, actions }: { item: BlockItem; actions: BlockActions }) {
  const live = useContext(LiveContext);
  const grow = useContext(GrowContext);
  const follows = !!live && item.live && item.at !== undefined && item.block.kind !== "done";
  const subscribe = useCallback((cb: () => void) => (follows ? live!.subscribe(item.runId, cb) : noSubscribe()), [follows, live, item.runId]);
  const read = () => {
    if (!follows) return item.block;
    const b = live!.view(item.runId)?.blocks[item.at!];
    return b && b.key === item.block.key ? b : item.block;
  };
  const block = useSyncExternalStore(subscribe, read, read);
  const grown = block !== item.block;
  useLayoutEffect(() => {
    if (grown) grow();
  }, [block, grown, grow]);
  return <BlockView runId={item.runId} block={block} live={item.live} actions={actions} />;
}

const Row = memo(function Row({ item, actions, onOlder, onReveal }: { item: Item; actions: BlockActions; onOlder(runId: string): void; onReveal?(runId: string): void }) {
  switch (item.kind) {
    case "user":
      if (item.queuedRun) {
        const run = item.queuedRun;
        return (
          <div className="msg-user queued">
            <div className="bubble">{item.text}</div>
            <MessageAttachments paths={item.attachments} />
            <div className="queued-bar">
              <span className="chip chip-queued">Queued — runs when the agent is free</span>
              {actions.editQueued && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => actions.editQueued!(run, item.text)}>Edit</button>
              )}
              {actions.cancelQueued && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => actions.cancelQueued!(run)}>Cancel</button>
              )}
            </div>
          </div>
        );
      }
      return (
        <div className="msg-user">
          {item.review?.length ? <ReviewCard comments={item.review} /> : item.text && <div className="bubble">{item.text}</div>}
          <MessageAttachments paths={item.attachments} />
        </div>
      );
    case "static":
      return <StaticTurn text={item.text} runId={item.runId} onReveal={onReveal} />;
    case "block":
      return <LiveBlock item={item} actions={actions} />;
    case "older":
      return (
        <button type="button" className="btn btn-ghost older" onClick={() => onOlder(item.runId)}>
          <History size={14} aria-hidden /> Load earlier events
        </button>
      );
    case "wait":
      return (
        <div className="wait-line" role="status">
          <Loader2 size={14} className="spin" aria-hidden />
          {item.text}
        </div>
      );
  }
});

const NEAR_BOTTOM_PX = 48;
/** How long a jumped-to row stays highlighted (the CSS pulse fits in it). */
export const HIGHLIGHT_MS = 2600;
/** Frames to wait for a scrolled-to row to mount before focusing it. */
const FOCUS_FRAMES = 10;

/**
 * The virtualized transcript. It opens at the tail and sticks to the bottom
 * only while the person is there; scrolled up, new output waits behind a
 * "Jump to latest" button instead of moving the page under them.
 */
export function Transcript({
  items,
  live,
  actions,
  onOlder,
  onReveal,
  focus,
  pin,
}: {
  items: Item[];
  /** Where live rows read their streaming blocks; without it rows show the items' blocks. */
  live?: LiveBlocks;
  actions: BlockActions;
  onOlder(runId: string): void;
  /** An older turn came into view: follow its run so its details show. */
  onReveal?(runId: string): void;
  /** A row to scroll to, highlight and focus once (a search hit). */
  focus?: Focus;
  /** Changes when the person sent a message: back to the bottom to show it. */
  pin?: number;
}) {
  const list = useRef<VListHandle>(null);
  const root = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [away, setAway] = useState(false);
  const [target, setTarget] = useState<string>();
  const [pulse, setPulse] = useState(false);
  const focused = useRef<number | undefined>(undefined);
  const edges = useRef({ first: "", last: "" });

  // Older rows were put in front (same last row, new first row): keep the
  // view anchored to the end. Compared with the last committed render.
  const first = items.find((i) => i.kind !== "older")?.key ?? "";
  const last = items[items.length - 1]?.key ?? "";
  const prev = edges.current;
  const shift = prev.first !== "" && first !== prev.first && last === prev.last;
  useLayoutEffect(() => {
    edges.current = { first, last };
  });

  // A search hit's row, kept in view until the person scrolls themselves
  // (issue 23.8): turns above it that come in after the jump (older turns
  // revealed, a page folded in) add rows above it, which once left the
  // view at the wrong place or blank until a scroll.
  const anchor = useRef<string | undefined>(undefined);
  const release = () => (anchor.current = undefined);

  useLayoutEffect(() => {
    const i = anchor.current ? items.findIndex((it) => it.key === anchor.current) : -1;
    if (i >= 0) list.current?.scrollToIndex(i, { align: "center" });
    else if (atBottom.current && items.length > 0) list.current?.scrollToIndex(items.length - 1, { align: "end" });
  }, [items]);

  // A width change (inspector opened, window resized) reflows every row:
  // whoever was at the bottom stays there.
  const count = useRef(0);
  count.current = items.length;
  const itemsNow = useRef(items);
  itemsNow.current = items;
  useEffect(() => {
    const el = root.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let w = el.clientWidth;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth === w) return;
      w = el.clientWidth;
      const i = anchor.current ? itemsNow.current.findIndex((it) => it.key === anchor.current) : -1;
      if (i >= 0) list.current?.scrollToIndex(i, { align: "center" });
      else if (atBottom.current && count.current > 0) list.current?.scrollToIndex(count.current - 1, { align: "end" });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A streaming row grew (the items did not change): stay at the bottom.
  const grow = useCallback(() => {
    if (atBottom.current && count.current > 0) list.current?.scrollToIndex(count.current - 1, { align: "end" });
  }, []);

  useLayoutEffect(() => {
    if (!pin) return;
    release();
    atBottom.current = true;
    setAway(false);
    if (items.length > 0) list.current?.scrollToIndex(items.length - 1, { align: "end" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pin]);

  // After the follow effect above, so a jump wins over the tail. Waits
  // for the row to be among the items (its page may still be folding in).
  useLayoutEffect(() => {
    if (!focus || focused.current === focus.nonce) return;
    const i = items.findIndex((it) => it.key === focus.key);
    if (i < 0) return;
    focused.current = focus.nonce;
    atBottom.current = false;
    anchor.current = focus.key;
    list.current?.scrollToIndex(i, { align: "center" });
    setTarget(focus.key);
    setPulse(true);
    let frames = 0;
    const tryFocus = () => {
      const rows = root.current?.querySelectorAll<HTMLElement>("[data-key]") ?? [];
      const el = [...rows].find((r) => r.dataset.key === focus.key);
      if (el) el.focus({ preventScroll: true });
      else if (++frames < FOCUS_FRAMES) requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  }, [items, focus]);

  useEffect(() => {
    if (!pulse) return;
    const t = setTimeout(() => setPulse(false), HIGHLIGHT_MS);
    return () => clearTimeout(t);
  }, [pulse, target]);

  const onScroll = (offset: number) => {
    const h = list.current;
    if (!h) return;
    const bottom = offset + h.viewportSize >= h.scrollSize - NEAR_BOTTOM_PX;
    atBottom.current = bottom;
    setAway(!bottom);
  };

  const jump = () => {
    release();
    atBottom.current = true;
    setAway(false);
    list.current?.scrollToIndex(items.length - 1, { align: "end", smooth: true });
  };

  return (
    <LiveContext.Provider value={live}>
    <GrowContext.Provider value={grow}>
    <div className="transcript" ref={root}>
      <VList
        ref={list}
        data={items}
        shift={shift}
        onScroll={onScroll}
        className="transcript-list"
        tabIndex={0}
        aria-label="Transcript"
        // A click (to select text, or just to read) focuses the pane, and some
        // engines then draw the keyboard ring around all of it: only the
        // keyboard shows the ring (styles: .transcript-list[data-pointer]).
        onPointerDown={(e) => {
          release();
          e.currentTarget.dataset.pointer = "1";
        }}
        onWheel={release}
        onTouchStart={release}
        onKeyDown={(e) => {
          release();
          delete e.currentTarget.dataset.pointer;
        }}
        onBlur={(e) => delete e.currentTarget.dataset.pointer}
      >
        {(item) => (
          <div
            key={item.key}
            data-key={item.key}
            className={`row row-${item.kind}${pulse && item.key === target ? " row-target" : ""}`}
            tabIndex={item.key === target ? -1 : undefined}
          >
            <Row item={item} actions={actions} onOlder={onOlder} onReveal={onReveal} />
          </div>
        )}
      </VList>
      <div className="sr-only" role="status">{target ? "Showing the search match." : ""}</div>
      {away && (
        <button type="button" className="btn jump" onClick={jump}>
          <ArrowDown size={14} aria-hidden /> Jump to latest
        </button>
      )}
    </div>
    </GrowContext.Provider>
    </LiveContext.Provider>
  );
}
