// The next step an error offers (issue 23.13): every error a person can
// meet says what happened in one sentence (plainError.ts) and offers the
// fix — install the agent, fix its settings, locate the project's folder,
// or try again (docs/ARCHITECTURE.md §Errors). Pure; table-tested.

import type { RunErrorCode } from "../../contract/wire.gen";

export type Fix = "install" | "settings" | "locate" | "retry";

/** The button each fix shows. */
export const FIX_LABEL: Record<Fix, string> = {
  install: "Install…",
  settings: "Open settings",
  locate: "Locate folder",
  retry: "Retry",
};

const NOT_INSTALLED = /not installed|not found on (your )?path|executable file not found|command not found|\bnot found — /i;
const AUTH = /api[ _-]?key|unauthori[sz]ed|\b40[13]\b|forbidden|not logged in|log ?in|sign ?in|credential|authenticat|permission denied by the server/i;
const FOLDER = /(project('s)?|workspace) folder .*(missing|gone|moved|deleted)|folder .* is missing|chdir .*no such file/i;
const SETUP = /could not be started|is not set up|no command (is )?set|bad (config|setting)|invalid (config|setting)/i;

// The run error codes (run.ErrorCode, typed by the generated contract) that
// say which fix fits, whatever the words.
const INSTALL_CODES: ReadonlySet<string> = new Set<RunErrorCode>(["agent_not_installed", "agent_unknown"]);
const SETTINGS_CODES: ReadonlySet<string> = new Set<RunErrorCode>(["agent_start", "auth_required"]);

/**
 * The fix for a run's error, from its code (the shim's: agent_not_installed,
 * agent_start, …) and its words. A failure with no known cause can be
 * tried again.
 */
export function errorFix(message: string, code?: string): Fix {
  if ((code !== undefined && INSTALL_CODES.has(code)) || NOT_INSTALLED.test(message)) return "install";
  if (FOLDER.test(message)) return "locate";
  if (AUTH.test(message)) return "settings";
  if ((code !== undefined && SETTINGS_CODES.has(code)) || SETUP.test(message)) return "settings";
  return "retry";
}
