import { Fragment } from "react";
import { Visible } from "../../text/Visible";

/**
 * Plain text where `backticked` spans show as code (tool and approval
 * titles); hidden characters stay visible in both (text/Visible).
 */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/(`[^`\n]+`)/);
  return (
    <>
      {parts.map((p, i) =>
        p.length > 2 && p.startsWith("`") && p.endsWith("`") ? <code key={i} className="inline-code"><Visible text={p.slice(1, -1)} /></code> : <Fragment key={i}><Visible text={p} /></Fragment>,
      )}
    </>
  );
}
