// What the slash menu offers in a session: the agent's own commands and
// Hermes Desk's (components/composer/SlashMenu.tsx).
import type { RunStore } from "../../store/runStore";
import type { ProductCommand, SlashCommand } from "./SlashMenu";

/** The demo agent's scenarios (a prompt's first line `/scenario NAME`). */
export const DEMO_SCENARIOS = ["demo", "tool", "approval", "clarify", "thinking", "slow", "slowtool", "models", "recall"];

/** The agent's commands as last reported in the session's runs (newest first). */
export function latestCommands(runs: Pick<RunStore, "view">, runIds: string[]): SlashCommand[] {
  for (let i = runIds.length - 1; i >= 0; i--) {
    const v = runs.view(runIds[i]!);
    if (v && v.commands.length > 0) return v.commands;
  }
  return [];
}

export function buildProductCommands(o: {
  agent: string;
  active: boolean;
  stop(): void;
  model(): void;
  newSession(): void;
}): ProductCommand[] {
  const out: ProductCommand[] = [];
  if (o.active) {
    out.push({ name: "stop", description: "Stop the running turn", run: o.stop });
    out.push({ name: "model", description: "Switch the model of the running turn", run: o.model });
  }
  out.push({ name: "new", description: "Start a new session in this project", run: o.newSession });
  if (o.agent === "demo") {
    out.push({ name: "scenario", description: `Play a demo scenario: ${DEMO_SCENARIOS.join(", ")}`, insert: "/scenario " });
  }
  return out;
}
