// Wire types of the Hermes Desk API (docs/ARCHITECTURE.md §Domain, §Events, §API). Field names follow
// backend/run/run.go and event.go exactly: they are the contract.

import type { ConfigOption } from "../store/model";

export type RunStatus =
  | "queued"
  | "running"
  | "awaiting_approval"
  | "awaiting_clarify"
  | "cancelling"
  | "paused"
  | "completed"
  | "failed"
  | "cancelled"
  | "interrupted";

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set([
  "completed",
  "failed",
  "cancelled",
  "interrupted",
]);

export function isTerminalStatus(s: string | undefined): boolean {
  return s !== undefined && TERMINAL_STATUSES.has(s);
}

/** The one envelope every event travels in (docs/ARCHITECTURE.md §Events). */
export interface RunEvent {
  event_id: string;
  seq: number;
  run_id: string;
  session_id: string;
  type: string;
  created_at: number;
  terminal: boolean;
  // Payloads are decoded per type by the fold; unknown types are ignored.
  payload: unknown;
}

export interface Project {
  id: string;
  name: string;
  workspace: string;
  created_at?: string;
  /** The folder no longer exists (moved or deleted outside the app). */
  folder_missing?: boolean;
}

export interface Session {
  id: string;
  project_id: string;
  title: string;
  agent: string;
  model?: string;
  profile?: string;
  archived?: boolean;
  created_at?: string;
  updated_at?: string;
  /** Set on a session imported from a bundle: it is read-only. */
  imported_from?: string;
  /** The status of the session's newest run (the sidebar marks a failed one). */
  last_run_status?: RunStatus;
  /** The person's choices of the agent's settings (option id → value) the session's next runs start with. */
  config?: Record<string, string>;
}

/** An exported session: the file's suggested name, type and text. */
export interface ExportFile {
  filename: string;
  content_type: string;
  content: string;
}

export interface Message {
  id: string;
  session_id: string;
  role: "user" | "assistant";
  content: string;
  run_id?: string;
  created_at?: string;
  /** The paths a user message attached. */
  attachments?: string[];
  /** The assistant message's run outcome and error, without another read. */
  run_status?: RunStatus;
  error?: string;
  /** Run metadata, when the service attaches it to the message. */
  run?: RunInfo;
}

export interface SessionDetail extends Session {
  messages: Message[];
}

export interface RunInfo {
  id: string;
  project_id?: string;
  session_id: string;
  agent?: string;
  model?: string;
  status: RunStatus;
  last_seq: number;
  terminal: boolean;
  pending_approval_id?: string;
  pending_clarify_id?: string;
  exit_code?: number;
  error?: string;
  active_controls?: string[];
  created_at?: string;
  started_at?: string;
  ended_at?: string;
}

/** POST /api/uploads's answer: where the file now is, to attach by path. */
export interface Upload {
  path: string;
  name: string;
  size: number;
}

export interface StartRunRequest {
  session_id: string;
  message: string;
  client_request_id: string;
  attachments?: string[];
  model?: string;
}

export interface StartResult {
  run_id: string;
  session_id: string;
  user_message_id: string;
  assistant_message_id: string;
  status: RunStatus;
}

export type ControlStatus = "accepted" | "not-active" | "conflict" | "unsupported" | "expired";

export interface ControlResult {
  accepted: boolean;
  status: ControlStatus;
  event_id?: string;
  message?: string;
  /** The new run a queue control created. */
  run_id?: string;
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

/**
 * The agent's settings for a new session as last reported on this machine,
 * from GET /api/agents/{name}/config (docs/ARCHITECTURE.md §Session config
 * options); empty when no session of it reported any yet.
 */
export interface AgentConfig {
  agent: string;
  options: ConfigOption[];
  /** The model a new session starts on, and the models it offered (agents that report models apart from their settings). */
  model?: string;
  models?: { id: string; name?: string; description?: string }[];
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

// The watch bus (docs/ARCHITECTURE.md "The watch bus"; backend/run/watch.go).
export type WatchType = "snapshot" | "run.changed" | "session.changed" | "agents.changed" | "schedules.changed" | "goodbye" | "doorbell";

export interface PendingPrompt {
  kind: "approval" | "clarify";
  id: string;
  title: string;
  command?: string;
  options?: { id: string; label: string; kind?: string }[];
}

export interface RunState {
  run_id: string;
  session_id: string;
  project_id?: string;
  agent: string;
  session_title?: string;
  status: RunStatus;
  last_seq: number;
  created_at: string;
  started_at?: string;
  ended_at?: string;
  pending?: PendingPrompt;
  error?: string;
}

export interface SessionChange {
  kind: "created" | "updated" | "deleted" | "activity" | "project";
  session_id?: string;
  project_id?: string;
  sessions_version: number;
}

export interface WatchMessage {
  seq: number;
  type: WatchType;
  snapshot?: { runs: RunState[]; sessions_version: number };
  run?: RunState;
  session?: SessionChange;
  reason?: string;
}
