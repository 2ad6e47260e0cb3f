import { AlertTriangle, Check, Hand, X } from "lucide-react";
import { memo, useEffect, useRef, useState } from "react";
import { InlineCode } from "../common/InlineCode";
import { mayTakeFocus } from "../common/takeFocus";
import type { ApprovalBlock } from "../../store/model";
import { hasInvisible } from "../../text/invisible";
import { Visible } from "../../text/Visible";

/** The key that picks option i: 1–9 in the agent's order. */
export function optionKey(i: number): string | undefined {
  return i < 9 ? String(i + 1) : undefined;
}

function isTyping(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
}

export const ApprovalCard = memo(function ApprovalCard({
  block,
  active,
  onChoose,
}: {
  block: ApprovalBlock;
  /** Only an unanswered approval of a live run takes answers (keys: the oldest, block.current). */
  active: boolean;
  onChoose: (approvalId: string, optionId: string) => Promise<string | undefined>;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [note, setNote] = useState<string | undefined>();
  // An allow on a request that shows nothing needs a second, deliberate click.
  const [confirming, setConfirming] = useState<string | null>(null);
  const pending = active && !block.resolved;
  // Several may wait at once: only the oldest takes the digits and the focus.
  const takesKeys = pending && block.current !== false;
  const first = useRef<HTMLButtonElement>(null);

  // The question takes the keyboard as it arrives, so its digits work.
  useEffect(() => {
    if (takesKeys && mayTakeFocus()) first.current?.focus({ preventScroll: true });
  }, [takesKeys]);

  const choose = async (optionId: string) => {
    if (!pending || busy) return;
    const o = block.options.find((x) => x.id === optionId);
    if (block.unexplained && !o?.kind?.startsWith("reject") && confirming !== optionId) {
      setConfirming(optionId);
      return;
    }
    setConfirming(null);
    setBusy(optionId);
    setNote(await onChoose(block.approvalId, optionId));
    setBusy(null);
  };

  useEffect(() => {
    if (!takesKeys) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const i = block.options.findIndex((_, j) => optionKey(j) === e.key);
      if (i >= 0) {
        e.preventDefault();
        void choose(block.options[i]!.id);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // What is shown must be what is approved: hidden and direction-changing
  // characters appear as <U+XXXX> badges, and the card says so.
  const input = block.input !== undefined && block.input !== null ? JSON.stringify(block.input, null, 2) : undefined;
  const hidden = [block.title, block.description, block.command, block.diff, input, ...(block.locations ?? [])].some(
    (t) => t !== undefined && hasInvisible(t),
  );
  const chosen = block.resolved ? block.options.find((o) => o.id === block.resolved!.choice) : undefined;
  return (
    <section
      className={`approval-card${pending ? " pending" : ""}`}
      aria-label="Approval request"
      data-hidden-chars={hidden || undefined}
    >
      <header>
        <Hand size={16} aria-hidden className="needs-icon" />
        <h3>
          <InlineCode text={block.title} />
        </h3>
      </header>
      {hidden && (
        <p className="approval-warning" role="alert">
          <AlertTriangle size={14} aria-hidden />
          This request contains hidden or direction-changing characters, shown as &lt;U+…&gt;. What runs may differ
          from how it reads.
        </p>
      )}
      {block.description && (
        <p className="approval-desc">
          <Visible text={block.description} />
        </p>
      )}
      {block.unexplained && (
        <p className="approval-warning" role="alert">
          <AlertTriangle size={14} aria-hidden />
          The agent did not say what it wants to do. Allowing it lets it do anything its tool can.
        </p>
      )}
      {block.command && (
        <pre className="mono approval-cmd" aria-label="Command">
          <Visible text={block.command} />
        </pre>
      )}
      {block.locations && block.locations.length > 0 && (
        <ul className="approval-locations" aria-label="Files">
          {block.locations.map((l) => (
            <li key={l} className="mono">
              <Visible text={l} />
            </li>
          ))}
        </ul>
      )}
      {block.diff && (
        <pre className="mono approval-cmd approval-diff" aria-label="Change">
          <Visible text={block.diff} />
        </pre>
      )}
      {!block.command && input && (
        <pre className="mono approval-cmd" aria-label="Input">
          <Visible text={input} />
        </pre>
      )}
      {block.resolved ? (
        <p className="approval-result">
          {chosen?.kind?.startsWith("reject") ? <X size={14} aria-hidden /> : <Check size={14} aria-hidden />}
          <Visible text={chosen?.label ?? block.resolved.choice} />
          {block.resolved.by && block.resolved.by !== "user" ? ` (${block.resolved.by})` : ""}
        </p>
      ) : pending ? (
        <div className="approval-options" role="group" aria-label="Choices">
          {block.options.map((o, i) => (
            <button
              key={o.id}
              ref={i === 0 ? first : undefined}
              type="button"
              className={`btn ${o.kind?.startsWith("reject") ? "btn-secondary" : i === 0 ? "btn-primary" : "btn-secondary"}`}
              disabled={busy !== null}
              aria-keyshortcuts={takesKeys ? optionKey(i) : undefined}
              onClick={() => void choose(o.id)}
            >
              {confirming === o.id && "Click again: "}
              <Visible text={o.label} />
              {takesKeys && optionKey(i) && <kbd>{optionKey(i)}</kbd>}
            </button>
          ))}
        </div>
      ) : (
        <p className="quiet">No longer waiting for an answer.</p>
      )}
      {note && <p className="control-note" role="alert">{note}</p>}
    </section>
  );
});
