import { ArrowDown, History, Loader2 } from "lucide-react";
import { memo, useLayoutEffect, useRef, useState } from "react";
import { VList, type VListHandle } from "virtua";
import type { Block } from "../store/model";
import { BlockView, type BlockActions } from "./BlockView";
import { Markdown } from "./Markdown";

export type Item =
  | { key: string; kind: "user"; text: string }
  | { key: string; kind: "static"; text: string }
  | { key: string; kind: "block"; runId: string; block: Block; live: boolean }
  | { key: string; kind: "older"; runId: string }
  | { key: string; kind: "wait"; text: string };

const Row = memo(function Row({ item, actions, onOlder }: { item: Item; actions: BlockActions; onOlder(runId: string): void }) {
  switch (item.kind) {
    case "user":
      return <div className="msg-user"><div className="bubble">{item.text}</div></div>;
    case "static":
      return <Markdown text={item.text} done className="msg-assistant" />;
    case "block":
      return <BlockView runId={item.runId} block={item.block} live={item.live} actions={actions} />;
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

/**
 * The virtualized transcript. It opens at the tail and sticks to the bottom
 * only while the person is there; scrolled up, new output waits behind a
 * "Jump to latest" button instead of moving the page under them.
 */
export function Transcript({ items, actions, onOlder }: { items: Item[]; actions: BlockActions; onOlder(runId: string): void }) {
  const list = useRef<VListHandle>(null);
  const atBottom = useRef(true);
  const [away, setAway] = useState(false);
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

  useLayoutEffect(() => {
    if (atBottom.current && items.length > 0) list.current?.scrollToIndex(items.length - 1, { align: "end" });
  }, [items]);

  const onScroll = (offset: number) => {
    const h = list.current;
    if (!h) return;
    const bottom = offset + h.viewportSize >= h.scrollSize - NEAR_BOTTOM_PX;
    atBottom.current = bottom;
    setAway(!bottom);
  };

  const jump = () => {
    atBottom.current = true;
    setAway(false);
    list.current?.scrollToIndex(items.length - 1, { align: "end", smooth: true });
  };

  return (
    <div className="transcript">
      <VList ref={list} data={items} shift={shift} onScroll={onScroll} className="transcript-list" tabIndex={0} aria-label="Transcript">
        {(item) => (
          <div key={item.key} className={`row row-${item.kind}`}>
            <Row item={item} actions={actions} onOlder={onOlder} />
          </div>
        )}
      </VList>
      {away && (
        <button type="button" className="btn jump" onClick={jump}>
          <ArrowDown size={14} aria-hidden /> Jump to latest
        </button>
      )}
    </div>
  );
}
