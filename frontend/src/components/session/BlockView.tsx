import { Brain, ChevronRight, CircleCheck, Circle, CircleDashed, Info, TriangleAlert } from "lucide-react";
import { usageBits } from "../../usage/format";
import { memo, useState } from "react";
import type { Block, DoneBlock, PlanBlock, ReasoningBlock } from "../../store/model";
import { ApprovalCard } from "./ApprovalCard";
import { ClarifyCard } from "./ClarifyCard";
import { CopyButton } from "../common/copy";
import { plainError } from "../common/plainError";
import { errorFix, FIX_LABEL } from "../common/errorFix";
import { Markdown } from "../common/Markdown";
import { statusLook } from "../common/StatusBadge";
import { ChangeSummary } from "./DiffView";
import { formatDuration, ToolCard } from "./ToolCard";
import { Visible } from "../../text/Visible";
import { RunCheckpointBar } from "../checkpoints/RunCheckpointBar";

export interface BlockActions {
  approve(runId: string, approvalId: string, optionId: string): Promise<string | undefined>;
  clarify(runId: string, clarifyId: string, answer: string): Promise<string | undefined>;
  /** Cancels a queued follow-up before it starts. */
  cancelQueued?(runId: string): void;
  /** Sends the turn that failed again. */
  retry?(runId: string): void;
  /** Shows the end of the run's log. */
  openLog?(runId: string): void;
  /** Takes a queued follow-up back into the composer to change it. */
  editQueued?(runId: string, text: string): void;
  /** Opens Settings (an agent to install or set up; errorFix.ts). */
  openSettings?(): void;
  /** Points the project at its moved folder (errorFix.ts "locate"). */
  locateFolder?(): void;
}

const Reasoning = memo(function Reasoning({ block }: { block: ReasoningBlock }) {
  // Open while thinking, folded once done, unless the person chose.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const shown = !block.done || (chosen ?? false);
  return (
    <div className="reasoning">
      <button type="button" className="reasoning-toggle" aria-expanded={shown} onClick={() => setChosen(!shown)}>
        <ChevronRight size={14} className="chev" aria-hidden />
        <Brain size={14} aria-hidden />
        {block.done ? "Thought" : "Thinking…"}
      </button>
      {shown && <div className="reasoning-text"><Visible text={block.text} /></div>}
    </div>
  );
});

function Plan({ block }: { block: PlanBlock }) {
  return (
    <section className="plan" aria-label="Plan">
      <h4>Plan</h4>
      <ol>
        {block.entries.map((e, i) => (
          <li key={i} className={`plan-${e.status}`}>
            {e.status === "completed" ? (
              <CircleCheck size={14} aria-label="done" />
            ) : e.status === "in_progress" ? (
              <CircleDashed size={14} aria-label="in progress" className="spin-slow" />
            ) : (
              <Circle size={14} aria-label="pending" />
            )}
            <span><Visible text={e.content} /></span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Done({ block }: { block: DoneBlock }) {
  const l = statusLook(block.status, 14);
  const u = block.usage;
  const bits = [
    formatDuration(block.durationMs),
    ...usageBits(u),
  ].filter(Boolean);
  return (
    <div className={`done-line tone-${l.tone}`}>
      {l.icon}
      <span>{l.label}{block.note ? ` — ${block.note}` : ""}</span>
      {block.error && !block.errorShown && <span className="done-error">— <Visible text={plainError(block.error).lead} /></span>}
      {bits.length > 0 && <span className="quiet">{bits.join(" · ")}</span>}
      {block.changes && <ChangeSummary totals={block.changes} />}
    </div>
  );
}

/** One transcript row. Memoized on the block object: only a changed block re-renders. */
export const BlockView = memo(function BlockView({
  runId,
  block,
  live,
  actions,
}: {
  runId: string;
  block: Block;
  live: boolean;
  actions: BlockActions;
}) {
  switch (block.kind) {
    case "user":
      return <div className="msg-user"><div className="bubble"><Visible text={block.text} /></div></div>;
    case "text":
      // One element tree while streaming and once done, so finishing keeps
      // the rendered pieces instead of mounting the whole answer again.
      return (
        <div className="answer">
          <Markdown text={block.text} done={block.done} className="msg-assistant" />
          {block.done && <CopyButton text={block.text} what="Answer" className="answer-copy" />}
        </div>
      );
    case "reasoning":
      return <Reasoning block={block} />;
    case "tool":
      return <ToolCard block={block} />;
    case "approval":
      return <ApprovalCard block={block} active={live} onChoose={(a, o) => actions.approve(runId, a, o)} />;
    case "clarify":
      return <ClarifyCard block={block} active={live} onAnswer={(c, a) => actions.clarify(runId, c, a)} />;
    case "plan":
      return <Plan block={block} />;
    case "error": {
      const e = plainError(block.message, block.detail, block.code);
      // The one next step this error offers first (issue 23.13); Retry
      // stays for a failure whose fix is elsewhere, once tried.
      const fix = errorFix(block.message, block.code);
      const fixAction = fix === "install" || fix === "settings" ? actions.openSettings : fix === "locate" ? actions.locateFolder : undefined;
      return (
        <div className="error-block" role="alert">
          <TriangleAlert size={14} aria-hidden />
          <div className="error-main">
            <p><Visible text={e.lead} /></p>
            {e.details && (
              <details>
                <summary>Details</summary>
                <pre className="mono"><Visible text={e.details} /></pre>
              </details>
            )}
            {((!live && actions.retry) || actions.openLog || fixAction) && (
              <div className="error-actions">
                {fixAction && <button type="button" className="btn btn-primary btn-sm" onClick={fixAction}>{FIX_LABEL[fix]}</button>}
                {!live && actions.retry && <button type="button" className="btn btn-secondary btn-sm" onClick={() => actions.retry!(runId)}>Retry</button>}
                {actions.openLog && <button type="button" className="btn btn-ghost btn-sm" onClick={() => actions.openLog!(runId)}>Open log</button>}
              </div>
            )}
          </div>
          <CopyButton text={[block.message, block.detail].filter(Boolean).join("\n\n")} what="Error" />
        </div>
      );
    }
    case "notice":
      return (
        <div className="notice-block" role="status">
          <Info size={14} aria-hidden />
          <p><Visible text={block.message} /></p>
        </div>
      );
    case "done":
      return (
        <>
          <Done block={block} />
          <RunCheckpointBar runId={runId} />
        </>
      );
  }
});
