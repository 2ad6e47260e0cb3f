// Error text for people: one plain sentence first, the rest (protocol codes,
// pids, socket paths, log lines) behind "Details" (docs/ARCHITECTURE.md
// §Errors). A message whose code says Hermes Desk worded it (the contract's
// SENTENCE_CODES) is shown as written; only the agent's own words are
// ordered here.

import { SENTENCE_CODES } from "../../contract/wire.gen";

const WORDED: ReadonlySet<string> = new Set(SENTENCE_CODES);

const LOG_LINE = /^\s*(time=\S+\s+)?level=(DEBUG|INFO|WARN|ERROR)\b|^\s*\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /;
const NOISE = /\b(pid|socket|sock|fd)\b\s*[=:]?\s*\S+|\/[\w./-]+\.sock\b/i;

export interface PlainError {
  /** One sentence a person can act on. */
  lead: string;
  /** Everything else, in the order it came; empty when there is nothing more. */
  details: string;
}

/** Splits a run's error into a lead sentence and details. */
export function plainError(message: string, detail?: string, code?: string): PlainError {
  if (code !== undefined && WORDED.has(code)) {
    const [first = "", ...more] = message.trim().split("\n");
    const lead = sentence(first.trim() || "The agent stopped with an error.");
    return { lead, details: [more.join("\n").trim(), detail ?? ""].filter((s) => s.trim()).join("\n\n") };
  }
  const lines = message.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  const useful = lines.filter((l) => !LOG_LINE.test(l));
  // The last useful line without pids or paths is usually the cause.
  const clean = useful.filter((l) => !NOISE.test(l));
  let lead = (clean[clean.length - 1] ?? useful[useful.length - 1] ?? "The agent stopped with an error.").trim();
  lead = lead
    .replace(/^(acp|rpc|jsonrpc|shim|warm|agent):\s*/i, "")
    .replace(/\s*\((code|error code)\s*-?\d+\)\s*$/i, "");
  lead = sentence(lead);
  const rest = [...lines.filter((l) => l.trim() !== lead.replace(/\.$/, ""))];
  const details = [rest.join("\n"), detail ?? ""].filter((s) => s.trim()).join("\n\n");
  return { lead, details: details === lead ? "" : details };
}

/** s with a capital first letter and a full stop. */
function sentence(s: string): string {
  const t = s.replace(/^./, (c) => c.toUpperCase());
  return /[.!?]$/.test(t) ? t : t + ".";
}
