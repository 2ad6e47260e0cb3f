// A review sent to the agent, as the transcript shows it (docs/ARCHITECTURE.md
// §Review): a compact card listing the comments — path:line, the quoted
// line, the text — instead of the message's wall of text. The comments
// come with the message (MessageView.review).
import { MessageSquareCode } from "lucide-react";
import type { ReviewComment } from "../../contract/wire.gen";
import "./review.css";

export function ReviewCard({ comments }: { comments: readonly ReviewComment[] }) {
  return (
    <section className="bubble rv-card" aria-label={`Review: ${comments.length} ${comments.length === 1 ? "comment" : "comments"}`}>
      <p className="rv-card-head">
        <MessageSquareCode size={14} aria-hidden /> Review · {comments.length} {comments.length === 1 ? "comment" : "comments"}
      </p>
      <ul className="rv-card-list">
        {comments.map((c) => (
          <li key={c.id}>
            <code className="rv-card-where">{c.path}:{c.line}{c.side === "old" ? " (base)" : ""}</code>
            {c.quote && <code className="rv-card-quote ellipsis">{c.quote.split("\n")[0]}</code>}
            <span className="rv-card-text">{c.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
