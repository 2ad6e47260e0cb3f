import { describe, expect, it } from "vitest";
import { errorFix, type Fix } from "./errorFix";

// Issue 23.13: every error a person can meet offers its fix.
describe("errorFix", () => {
  it.each<[string, string | undefined, Fix]>([
    ["Claude Code is not installed.", "agent_not_installed", "install"],
    ["codex not found — install it with npm install -g @openai/codex", undefined, "install"],
    ['exec: "goose": executable file not found in $PATH', undefined, "install"],
    ["The agent could not run: unknown agent", "agent_unknown", "install"],
    ["Invalid API key: check the key in Settings", undefined, "settings"],
    ["401 Unauthorized", undefined, "settings"],
    ["Please log in: run claude once to sign in", undefined, "settings"],
    ["Any command could not be started: fork/exec: bad", "agent_start", "settings"],
    // The code decides even when the words say nothing of signing in.
    ["Gemini CLI needs you to choose how it is used first.", "auth_required", "settings"],
    ["The agent did not come up.", "agent_start", "settings"],
    ["The agent could not run.", "agent_not_installed", "install"],
    ['the folder of the project "x" is missing (moved or deleted): locate it or remove the project', undefined, "locate"],
    ["chdir /home/me/proj: no such file or directory", undefined, "locate"],
    ["The project's folder is missing (moved or deleted): locate it or remove the project.", undefined, "locate"],
    ["The model refused the request.", undefined, "retry"],
    ["The run's process ended unexpectedly, so the run was interrupted.", "shim_stopped", "retry"],
    ["rate limited, try again later", undefined, "retry"],
  ])("%s (%s) → %s", (message, code, want) => {
    expect(errorFix(message, code)).toBe(want);
  });
});
