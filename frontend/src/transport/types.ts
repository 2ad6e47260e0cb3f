// Wire types of the Hermes Desk API (docs/ARCHITECTURE.md §Domain, §Events, §API). The types the Go
// side sends come from the generated contract (../contract/wire.gen.ts, `make contract`) and are
// re-exported here under the names the rest of the frontend imports; only shapes Go does not
// describe there are written by hand below.

import type { ConfigOption } from "../contract/wire.gen";
import { TERMINAL_STATUS_LIST, type RunEvent } from "../contract/wire.gen";

export type {
  AgentDefinition,
  AgentInfo,
  AgentModels,
  AgentRegistry,
  ApiErrorCode,
  ApprovalOption,
  ControlResult,
  ControlStatus,
  Host,
  HostState,
  Message,
  ModelOption,
  PendingKind,
  PendingPrompt,
  Project,
  RegistryOffer,
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
  Conflicts,
  Overlap,
  OverlapHunk,
  LineSpan,
  WatchType,
  Workspace,
  WorkspaceDetail,
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

/** The kinds of agent a person can add (docs/ARCHITECTURE.md §Agents are data). */
export type AgentKind = "acp" | "command" | "openai-compatible";

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

/** An agent's own history found on this machine (GET /api/history/sources). */
export interface HistorySource {
  id: string;
  name: string;
  root: string;
  sessions: number;
  last_update?: string;
  mirror: boolean;
  errors?: string[];
}

/** One source's conversations never imported (GET /api/history/offer): the first-start offer. */
export interface HistoryOffer {
  source: string;
  name: string;
  root: string;
  new: number;
}

/** What one history import did (POST /api/history/import). */
export interface HistoryImportResult {
  source: string;
  mirror: boolean;
  imported: number;
  updated: number;
  already: number;
  skipped: number;
  failed?: { file: string; reason: string }[];
}
