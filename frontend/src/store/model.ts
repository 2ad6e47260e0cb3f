// The transcript model one run's events fold into. Blocks are replaced, never
// mutated, when they change, so a memoized row re-renders only when its own
// block did (the streaming one); the array itself grows in place.
import type { RunEvent, RunStatus } from "../transport/types";

export interface ApprovalOption {
  id: string;
  label: string;
  kind?: string;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  reasoning_tokens?: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  cost_usd?: number;
  /** "agent", or "prices YYYY-MM-DD" (the shipped table's date). */
  cost_source?: string;
  model?: string;
  context_tokens?: number;
  context_window?: number;
}

export interface PlanEntry {
  content: string;
  status: string;
  priority?: string;
}

interface BlockBase {
  /** Stable React key. */
  key: string;
  seq: number;
}

export interface UserBlock extends BlockBase {
  kind: "user";
  messageId: string;
  text: string;
}
export interface TextBlock extends BlockBase {
  kind: "text";
  text: string;
  /** False while tokens may still be appended (highlight only when true). */
  done: boolean;
}
export interface ReasoningBlock extends BlockBase {
  kind: "reasoning";
  text: string;
  done: boolean;
}
export type ToolStatus = "running" | "completed" | "failed" | "denied" | "cancelled" | string;
export interface ToolBlock extends BlockBase {
  kind: "tool";
  toolCallId: string;
  name: string;
  title?: string;
  toolKind?: string;
  input?: unknown;
  locations?: string[];
  output: string;
  /** Output dropped from the front to bound memory. */
  truncated: boolean;
  status: ToolStatus;
  exitCode?: number;
  durationMs?: number;
  error?: string;
  startedAt?: number;
  /** Files this call changed, with their diffs. */
  changes?: FileTouch[];
}
/** One of an agent's session settings: the generated contract's (backend/run/event.go ConfigOption). */
import type { ConfigOption } from "../contract/wire.gen";
export type { ConfigOption };

export interface ApprovalBlock extends BlockBase {
  kind: "approval";
  approvalId: string;
  toolCallId?: string;
  title: string;
  description?: string;
  command?: string;
  /** The tool's kind, the files it touches, the diff it asks to make and its input when no command says it. */
  toolKind?: string;
  locations?: string[];
  diff?: string;
  input?: unknown;
  /** The agent said nothing a person could judge: Allow needs a second click. */
  unexplained?: boolean;
  options: ApprovalOption[];
  resolved?: { choice: string; by?: string };
  /** The oldest approval still waiting: it takes the keys and the focus (the others wait their turn). */
  current?: boolean;
}
export interface ClarifyBlock extends BlockBase {
  kind: "clarify";
  clarifyId: string;
  question: string;
  choices: string[];
  answer?: string;
}
export interface PlanBlock extends BlockBase {
  kind: "plan";
  entries: PlanEntry[];
}
export interface ErrorBlock extends BlockBase {
  kind: "error";
  message: string;
  code?: string;
  detail?: string;
}
export interface NoticeBlock extends BlockBase {
  kind: "notice";
  message: string;
}
export interface DoneBlock extends BlockBase {
  kind: "done";
  status: RunStatus;
  error?: string;
  exitCode?: number;
  durationMs?: number;
  usage?: Usage;
  stopReason?: string;
  /** What the run changed, when it changed files. */
  changes?: ChangeTotals;
  /** The run's error already has its own card above: the footer does not repeat it. */
  errorShown?: boolean;
  /** A word on how it ended ("the request was denied"). */
  note?: string;
}

export type Block =
  | UserBlock
  | TextBlock
  | ReasoningBlock
  | ToolBlock
  | ApprovalBlock
  | ClarifyBlock
  | PlanBlock
  | ErrorBlock
  | NoticeBlock
  | DoneBlock;

/** One file.changed (docs/ARCHITECTURE.md §Events). */
export interface FileTouch {
  path: string;
  action?: string;
  seq: number;
  /** Unified diff; absent when unknown or binary. */
  diff?: string;
  added?: number;
  removed?: number;
  binary?: boolean;
  /** The stored diff was cut (very large); counts are whole. */
  truncated?: boolean;
  /** Why the file is named without a diff ("larger than 50 MiB"). */
  notCompared?: string;
  toolCallId?: string;
  /** "agent" (an edit payload) or "workspace" (the run's net change, from a snapshot). */
  source?: string;
}

/** A run's change set in numbers: "3 files changed, +12 −4". */
export interface ChangeTotals {
  files: number;
  added: number;
  removed: number;
}

export interface RunView {
  runId: string;
  sessionId: string;
  status: RunStatus | "unknown";
  statusDetail?: string;
  agent?: string;
  model?: string;
  mode?: string;
  title?: string;
  workspace?: string;
  progress?: { message: string; percent?: number };
  usage?: Usage;
  blocks: Block[];
  files: FileTouch[];
  commands: { name: string; description?: string }[];
  /** The agent's session settings by name (config.updated: mode, thought level, switches…). */
  config?: ConfigOption[];
  /** The models the agent offers, where it says (model.updated). */
  models?: { id: string; name?: string; description?: string }[];
  pendingApprovalId?: string;
  /** Every approval still waiting, oldest first (an agent may ask again before the first is answered). */
  pendingApprovals: string[];
  pendingClarifyId?: string;
  /** A parked run's resume time (RFC 3339) and how often it parked (runState.ts). */
  resumesAt?: string;
  parkAttempts?: number;
  terminal: boolean;
  /** First seq held in this view (a tail window may start after 1). */
  firstSeq: number;
  lastSeq: number;
  startedAt?: number;
  endedAt?: number;
  /** Raw envelopes for the inspector's timeline (bounded, newest last). */
  timeline: RunEvent[];
  /** Bumped on every applied event; cheap change detection. */
  version: number;
  /**
   * Bumped on every applied event except those that only change what one
   * existing block shows (text streaming into the open block, output into
   * a tool card): the session view re-renders on this, the streaming row
   * on its own block (docs/ARCHITECTURE.md §Session view).
   */
  shape: number;
  /** Index of the block each id lives at (tool, approval, clarify). */
  index: Map<string, number>;
  openText: number;
  openReasoning: number;
  planAt: number;
}

export function newRunView(runId: string, sessionId = "", firstSeq = 1): RunView {
  return {
    runId,
    sessionId,
    status: "unknown",
    blocks: [],
    files: [],
    pendingApprovals: [],
    commands: [],
    terminal: false,
    firstSeq,
    lastSeq: firstSeq - 1,
    timeline: [],
    version: 0,
    shape: 0,
    index: new Map(),
    openText: -1,
    openReasoning: -1,
    planAt: -1,
  };
}
