// Error text for people: one plain sentence first, the rest (protocol codes,
// pids, socket paths, log lines) behind "Details" (docs/ARCHITECTURE.md
// §Errors). The service already sends safe messages; this only orders them.

const LOG_LINE = /^\s*(time=\S+\s+)?level=(DEBUG|INFO|WARN|ERROR)\b|^\s*\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /;
const NOISE = /\b(pid|socket|sock|fd)\b\s*[=:]?\s*\S+|\/[\w./-]+\.sock\b/i;

export interface PlainError {
  /** One sentence a person can act on. */
  lead: string;
  /** Everything else, in the order it came; empty when there is nothing more. */
  details: string;
}

/** Splits a run's error into a lead sentence and details. */
export function plainError(message: string, detail?: string): PlainError {
  const lines = message.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  const useful = lines.filter((l) => !LOG_LINE.test(l));
  // The last useful line without pids or paths is usually the cause.
  const clean = useful.filter((l) => !NOISE.test(l));
  let lead = (clean[clean.length - 1] ?? useful[useful.length - 1] ?? "The agent stopped with an error.").trim();
  lead = lead
    .replace(/^(acp|rpc|jsonrpc|shim|warm|agent):\s*/i, "")
    .replace(/\s*\((code|error code)\s*-?\d+\)\s*$/i, "")
    .replace(/^./, (c) => c.toUpperCase());
  if (!/[.!?]$/.test(lead)) lead += ".";
  const rest = [...lines.filter((l) => l.trim() !== lead.replace(/\.$/, ""))];
  const details = [rest.join("\n"), detail ?? ""].filter((s) => s.trim()).join("\n\n");
  return { lead, details: details === lead ? "" : details };
}
