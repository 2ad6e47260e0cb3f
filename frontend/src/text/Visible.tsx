import { Fragment } from "react";
import { codeOf, describeInvisible, splitInvisible } from "./invisible";

/**
 * Text with every bidi control, zero-width and control character shown as
 * a <U+XXXX> badge in its place (see invisible.ts). The characters
 * themselves are not rendered, so they cannot reorder what surrounds them.
 */
export function Visible({ text }: { text: string | undefined | null }) {
  if (!text) return null;
  return (
    <>
      {splitInvisible(text).map((p, i) =>
        "hidden" in p ? (
          <span key={i} className="invisible-char" title={describeInvisible(p.hidden)}>
            {`<${codeOf(p.hidden)}>`}
          </span>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}
