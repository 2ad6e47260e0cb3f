// A failure banner: the one sentence, the fix as a button, the raw words
// folded under "Details" (bannerError.ts; docs/ARCHITECTURE.md §Errors).
import { bannerError } from "./bannerError";
import { FIX_LABEL, type Fix } from "./errorFix";

export function ErrorBanner(p: {
  err: unknown;
  /** What failed ("Cannot follow this run"), said before the cause. */
  doing?: string;
  /** The fixes this place can carry out; the one that fits gets a button. */
  fixes?: Partial<Record<Fix, () => void>>;
  onDismiss?: () => void;
}) {
  const e = bannerError(p.err, p.doing);
  const fix = e.fix && p.fixes?.[e.fix];
  return (
    <div className="banner error-banner" role="alert">
      <div className="error-main">
        <p>{e.lead}</p>
        {e.details && (
          <details>
            <summary>Details</summary>
            <pre className="mono">{e.details}</pre>
          </details>
        )}
      </div>
      <div className="error-actions">
        {fix && <button type="button" className="btn btn-secondary btn-sm" onClick={fix}>{FIX_LABEL[e.fix!]}</button>}
        {p.onDismiss && <button type="button" className="btn btn-ghost" onClick={p.onDismiss}>Dismiss</button>}
      </div>
    </div>
  );
}
