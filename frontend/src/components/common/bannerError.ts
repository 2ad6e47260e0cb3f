// The one presentation of a failed request in the window's banners (issue
// 23.13, docs/ARCHITECTURE.md §Errors): what happened in one sentence, the
// fix it offers, the service's or transport's own words folded under
// "Details". Run errors in the transcript use plainError/errorFix directly;
// this covers everything else a person can meet (a read, a send, a stop,
// following a run). Pure; table-tested.

import { ApiError, BackendUnavailableError } from "../../transport/api";
import { errorFix, type Fix } from "./errorFix";
import { plainError } from "./plainError";

export interface BannerError {
  /** One sentence: what failed and why, in plain words. */
  lead: string;
  /** The raw words, for "Details"; empty when the lead says it all. */
  details: string;
  /** The next step the banner offers; none for a note the app wrote itself. */
  fix?: Fix;
}

// Words of a lost connection, from fetch in Chromium, Firefox, WebKit, Node
// and the Wails bridge.
const OFFLINE = /failed to fetch|networkerror|load failed|fetch failed|network (error|request)|econnrefused|econnreset|connection (refused|reset|closed)|socket hang up|unexpected eof|\bEOF\b|backend not connected/i;
// Our own transports' generic refusals: a status, never a sentence.
const GENERIC = /^(request failed|cannot follow run|http) ?\(?(\d{3})\)?\.?$/i;

/** The message of whatever was thrown ("Something went wrong" when it has none). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  return "Something went wrong";
}

function statusOf(err: unknown, text: string): number | undefined {
  if (err instanceof ApiError && err.status >= 400) return err.status;
  const m = GENERIC.exec(text.trim());
  return m ? Number(m[2]) : undefined;
}

/** The cause when it is the transport's (a lost connection, a bare status), in plain words. */
function transportCause(err: unknown, raw: string): string | undefined {
  if (err instanceof BackendUnavailableError || OFFLINE.test(raw)) {
    return "the connection to Hermes Desk was lost. It retries by itself; try again if this stays.";
  }
  const status = statusOf(err, raw);
  if (status === undefined || !(GENERIC.test(raw) || raw === "")) {
    // A sentence of the service's own, except that signed-out is never one a person can act on.
    return status === 401 || status === 403 ? SIGNED_OUT : undefined;
  }
  if (status === 401 || status === 403) return SIGNED_OUT;
  if (status === 404) return "it no longer exists. It may have been deleted in another window.";
  if (status >= 500) return "Hermes Desk hit a problem on its side. Try again; the log has the details.";
  return "the request was refused. Try again.";
}

const SIGNED_OUT = "this window is no longer signed in. Open it again from Hermes Desk (tray → Open).";

/**
 * The words to put after "Could not save: ": the service's own message as
 * it is, a transport failure as its plain cause.
 */
export function causeText(err: unknown): string {
  const raw = errorMessage(err).trim();
  return transportCause(err, raw) ?? raw;
}

/**
 * What a banner says about a failure while `doing` something ("Cannot
 * follow this run"). A sentence the service sent as its safe message keeps
 * its words (tidied by plainError); transport noise becomes a cause a
 * person understands.
 */
export function bannerError(err: unknown, doing?: string): BannerError {
  const raw = errorMessage(err).trim();
  const cause = transportCause(err, raw);
  if (cause !== undefined) {
    return { lead: doing ? `${doing}: ${cause}` : cause.replace(/^./, (c) => c.toUpperCase()), details: raw, fix: "retry" };
  }
  // The service's own safe sentence: keep it, drop protocol noise.
  const p = plainError(raw || "Something went wrong");
  const lead = doing ? `${doing}: ${p.lead}` : p.lead;
  // A note the app wrote (a string) is its own answer; a thrown error offers its fix.
  const fix = typeof err === "string" ? undefined : errorFix(raw, err instanceof ApiError ? err.code : undefined);
  return { lead, details: p.details, fix };
}
