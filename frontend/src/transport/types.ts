// Wire types of the Hermes Desk API (docs/ARCHITECTURE.md §Domain, §Events, §API). The types the Go
// side sends come from the generated contract (../contract/wire.gen.ts, `make contract`) and are
// re-exported here under the names the rest of the frontend imports; only shapes Go does not
// describe there are written by hand below.

import { TERMINAL_STATUS_LIST, type RunEvent } from "../contract/wire.gen";

export type {
  ApiErrorCode,
  ApprovalOption,
  ControlResult,
  ControlStatus,
  Message,
  PendingKind,
  PendingPrompt,
  Project,
  RunErrorCode,
  RunEvent,
  RunInfo,
  RunState,
  RunStatus,
  Session,
  SessionChange,
  SessionChangeKind,
  SessionDetail,
  StartResult,
  StartRunRequest,
  WarmAgent,
  WatchMessage,
  WatchSnapshot,
  WatchType,
} from "../contract/wire.gen";

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(TERMINAL_STATUS_LIST);

export function isTerminalStatus(s: string | undefined): boolean {
  return s !== undefined && TERMINAL_STATUSES.has(s);
}

/** An exported session: the file's suggested name, type and text. */
export interface ExportFile {
  filename: string;
  content_type: string;
  content: string;
}

/** POST /api/uploads's answer: where the file now is, to attach by path. */
export interface Upload {
  path: string;
  name: string;
  size: number;
}

/** One page of a run's journal after a cursor. */
export interface EventsPage {
  events: RunEvent[];
  /** False when the server says nothing more is stored after this page. */
  more?: boolean;
}

/** An agent's models from its server, from GET /api/agents/{name}/models. */
export interface AgentModels {
  agent: string;
  /** The agent's server lists models (an OpenAI-compatible server's /models). */
  listed: boolean;
  models: { id: string; name?: string; description?: string }[];
  /** Why no list came, in plain words (the server could not be reached). */
  message?: string;
}

/** An installed (or missing) agent CLI, from GET /api/agents. */
export interface AgentInfo {
  name: string;
  display_name?: string;
  installed?: boolean;
  available?: boolean;
  /** Installed and usable (e.g. signed in); message says why not. */
  ok?: boolean;
  message?: string;
  version?: string;
  healthy?: boolean;
  error?: string;
  install_hint?: string;
  /** A person added this agent (POST /api/agents): it can be removed; built-in ones cannot. */
  added?: boolean;
}

/** The kinds of agent a person can add (docs/ARCHITECTURE.md §Agents are data). */
export type AgentKind = "acp" | "command" | "openai-compatible";

/** An agent a person adds: POST /api/agents, PATCH /api/agents/{id}. */
export interface AgentDefinition {
  id: string;
  name: string;
  kind: AgentKind;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  base_url?: string;
}

/** One agent of the shipped ACP registry snapshot, as "Add agent" offers it. */
export interface RegistryOffer {
  id: string;
  name: string;
  version?: string;
  description?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  install_hint: string;
  installed: boolean;
  path?: string;
  source: "registry" | "hermesdesk";
  /** An agent with this id exists already. */
  taken?: boolean;
}

/** GET /api/agents/registry: the snapshot and its date. */
export interface AgentRegistry {
  date: string;
  source: string;
  commit: string;
  agents: RegistryOffer[];
}

export interface SearchHit {
  /** user, assistant, reasoning or tool (backend/journal/search.go). */
  kind?: string;
  session_id?: string;
  run_id?: string;
  message_id?: string;
  seq?: number;
  /** Matched terms are wrapped in « and » (journal.HighlightStart/End); plain text otherwise. */
  snippet?: string;
  title?: string;
  created_at?: string;
}

export type Settings = Record<string, unknown>;

/** Desktop.Info() from the Wails binding. */
export interface DesktopInfo {
  name: string;
  version: string;
  commit: string;
  data_dir: string;
  platform: string;
  tray_available: boolean;
  autostart_supported: boolean;
}

