import { MessageCircleQuestion } from "lucide-react";
import { memo, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { mayTakeFocus } from "../common/takeFocus";
import type { ClarifyBlock } from "../../store/model";
import { Visible } from "../../text/Visible";

export const ClarifyCard = memo(function ClarifyCard({
  block,
  active,
  onAnswer,
}: {
  block: ClarifyBlock;
  active: boolean;
  onAnswer: (clarifyId: string, answer: string) => Promise<string | undefined>;
}) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | undefined>();
  const pending = active && block.answer === undefined;
  const box = useRef<HTMLTextAreaElement>(null);

  // The question takes the keyboard as it arrives: the answer goes here.
  useEffect(() => {
    if (pending && mayTakeFocus()) box.current?.focus({ preventScroll: true });
  }, [pending]);

  const send = async (answer: string) => {
    if (!pending || busy || !answer.trim()) return;
    setBusy(true);
    setNote(await onAnswer(block.clarifyId, answer.trim()));
    setBusy(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(text);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      box.current?.blur();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send(text);
    }
  };
  return (
    <section className={`clarify-card${pending ? " pending" : ""}`} aria-label="Question from the agent">
      <header>
        <MessageCircleQuestion size={16} aria-hidden className="needs-icon" />
        <h3>{block.question ? <Visible text={block.question} /> : "The agent has a question"}</h3>
      </header>
      {block.answer !== undefined ? (
        <p className="clarify-answer"><Visible text={block.answer} /></p>
      ) : pending ? (
        <form onSubmit={submit}>
          {block.choices.length > 0 && (
            <div className="approval-options">
              {block.choices.map((c) => (
                <button key={c} type="button" className="btn btn-secondary" disabled={busy} onClick={() => void send(c)}>
                  <Visible text={c} />
                </button>
              ))}
            </div>
          )}
          <div className="clarify-row">
            <textarea
              ref={box}
              aria-label="Your answer"
              rows={1}
              value={text}
              placeholder="Type your answer…"
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKey}
              disabled={busy}
            />
            <button type="submit" className="btn btn-primary" disabled={busy || !text.trim()}>
              Answer
            </button>
          </div>
        </form>
      ) : (
        <p className="quiet">No longer waiting for an answer.</p>
      )}
      {note && <p className="control-note" role="alert">{note}</p>}
    </section>
  );
});
