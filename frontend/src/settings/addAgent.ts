// Settings → Agents → Add (docs/ARCHITECTURE.md §Agents are data): the form
// an added agent is typed into, what the ACP registry's offers fill it with,
// and the one lookup of an agent's name for people.
import type { AgentDefinition, AgentInfo, AgentKind, RegistryOffer } from "../transport/types";
import { parseEnv, shellJoin, shellSplit } from "./agentConfig";

export interface AddAgentForm {
  id: string;
  name: string;
  kind: AgentKind;
  /** Program and arguments as one shell-like line. */
  command: string;
  /** KEY=VALUE, one per line. */
  env: string;
  base_url: string;
}

export const KINDS: { kind: AgentKind; label: string }[] = [
  { kind: "acp", label: "ACP agent" },
  { kind: "command", label: "Command line" },
  { kind: "openai-compatible", label: "OpenAI-compatible server" },
];

export const emptyAddForm = (): AddAgentForm => ({ id: "", name: "", kind: "acp", command: "", env: "", base_url: "" });

/** The definition POST /api/agents takes; the backend checks it and names the field that is wrong. */
export function definitionOf(f: AddAgentForm): AgentDefinition {
  const argv = shellSplit(f.command.trim());
  const d: AgentDefinition = { id: f.id.trim(), name: f.name.trim(), kind: f.kind };
  if (argv.length) {
    d.command = argv[0];
    if (argv.length > 1) d.args = argv.slice(1);
  }
  const env = parseEnv(f.env);
  if (env.length) {
    d.env = {};
    for (const e of env) {
      const i = e.indexOf("=");
      d.env[e.slice(0, i)] = e.slice(i + 1);
    }
  }
  if (f.base_url.trim()) d.base_url = f.base_url.trim();
  return d;
}

/** Choosing an offer of the registry fills the form with its id, name and launch command. */
export function formFromOffer(o: RegistryOffer): AddAgentForm {
  return {
    id: o.id,
    name: o.name,
    kind: "acp",
    command: shellJoin([o.command, ...(o.args ?? [])]),
    env: Object.entries(o.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
    base_url: "",
  };
}

/** The name people see for agent id: the backend's display name (built in, or given when added); the id when unknown. */
export function agentLabel(agents: readonly AgentInfo[] | null | undefined, id: string): string {
  return agents?.find((a) => a.name === id)?.display_name || id;
}
