// The API client shared by both transports. Each transport supplies only a
// raw `request` (HTTP fetch, or the Wails Desktop.Request binding) and a way
// to follow a run live; every route of docs/ARCHITECTURE.md §API is spelled out once here.
import type { QuotaLine, UsageGroup, UsageReport } from "../usage/types";
import type {
  AgentDefinition,
  AgentInfo,
  AgentConfig,
  AgentModels,
  AgentRegistry,
  ControlResult,
  EventsPage,
  ExportFile,
  HistoryImportResult,
  HistoryOffer,
  HistorySource,
  Project,
  RunEvent,
  RunInfo,
  SearchHit,
  Session,
  SessionDetail,
  Settings,
  StartResult,
  StartRunRequest,
  WatchMessage,
  Workspace,
  WorkspaceDetail,
} from "./types";
import type { Checkpoint, CheckpointResult, MergePreview, MergeResult, PullRequestResult, PushResult, ResolveMergeResult, Review, ReviewComment, ReviewCommentRequest, ReviewSendResult } from "../contract/wire.gen";
import type { Firing, Schedule, ScheduleInput, SchedulePreview } from "../schedules/types";
import type { Host } from "./types";

export interface RawResponse {
  status: number;
  body: string;
}

export type RawRequest = (method: string, path: string, body?: string) => Promise<RawResponse>;

/** Thrown when no backend answers: the UI shows "Backend not connected". */
export class BackendUnavailableError extends Error {
  constructor(message = "Backend not connected") {
    super(message);
    this.name = "BackendUnavailableError";
  }
}

/** An HTTP-level refusal with the service's stable code and safe message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function isUnavailable(err: unknown): boolean {
  return err instanceof BackendUnavailableError;
}

// The service's error body shape is {error: {code, message}} or
// {code, message} or {error: "text"}; accept all three rather than guess.
function toApiError(status: number, body: string): ApiError {
  let code = `http_${status}`;
  let message = `Request failed (${status})`;
  try {
    const v = JSON.parse(body) as Record<string, unknown>;
    const e = (typeof v.error === "object" && v.error !== null ? v.error : v) as Record<string, unknown>;
    if (typeof e.code === "string") code = e.code;
    if (typeof e.message === "string") message = e.message;
    else if (typeof v.error === "string") message = v.error;
  } catch {
    // Not JSON: keep the generic message; never show raw bodies to people.
  }
  return new ApiError(status, code, message);
}

// Statuses a static server or proxy gives when no API is behind it.
const NO_API = new Set([404, 405, 501, 502, 503, 504]);

function isJSON(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

export function parseJSON<T>(res: RawResponse): T {
  if (res.status >= 400) {
    // The API always answers errors in JSON; anything else is not the API.
    if (NO_API.has(res.status) && !isJSON(res.body)) throw new BackendUnavailableError();
    throw toApiError(res.status, res.body);
  }
  if (res.body === "") return undefined as T;
  try {
    return JSON.parse(res.body) as T;
  } catch {
    // An HTML page where JSON was expected means a static server without the
    // API behind it (e.g. `vite preview`): there is no backend.
    throw new BackendUnavailableError();
  }
}

function list<T>(v: unknown, key: string): T[] {
  if (Array.isArray(v)) return v as T[];
  if (v && typeof v === "object" && Array.isArray((v as Record<string, unknown>)[key])) {
    return (v as Record<string, T[]>)[key] ?? [];
  }
  return [];
}

/** Normalizes a page: a bare array, or {events, more|has_more}. */
export function toEventsPage(v: unknown): EventsPage {
  const events = list<RunEvent>(v, "events");
  let more: boolean | undefined;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.more === "boolean") more = o.more;
    else if (typeof o.has_more === "boolean") more = o.has_more;
  }
  return { events, more };
}

const enc = encodeURIComponent;

/** Where a session works: the checkout, a new worktree (from base), or an existing workspace. */
export interface WorkspaceWhere {
  workspace?: "checkout" | "worktree";
  base?: string;
  workspace_id?: string;
}

/** One file's diff against the workspace's merge-base: a file.changed payload (GET …/review/diff). */
export interface ReviewFileDiff {
  path: string;
  action: string;
  diff?: string;
  added?: number;
  removed?: number;
  binary?: boolean;
  truncated?: boolean;
  not_compared?: string;
}

export class ApiClient {
  constructor(private readonly raw: RawRequest) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body === undefined ? undefined : JSON.stringify(body));
    return parseJSON<T>(res);
  }

  async health(): Promise<boolean> {
    const res = await this.raw("GET", "/api/health");
    if (res.status !== 200) return false;
    // Plain health says only "ok" — as text or as JSON.
    const t = res.body.trim();
    return t === "ok" || t === '"ok"' || /"status"\s*:\s*"ok"/.test(t) || /"ok"\s*:\s*true/.test(t);
  }

  async listProjects(): Promise<Project[]> {
    return list<Project>(await this.call("GET", "/api/projects"), "projects");
  }
  /** Another host's projects, through its core's API (docs/ARCHITECTURE.md §Remote cores). */
  async hostProjects(host: string): Promise<Project[]> {
    return list<Project>(await this.call("GET", `/api/hosts/${enc(host)}/projects`), "projects");
  }
  createProject(name: string, workspace: string): Promise<Project> {
    return this.call("POST", "/api/projects", { name, workspace });
  }
  /** Renames a project, or points it at its moved folder (Locate…). */
  updateProject(id: string, patch: { name: string } | { workspace: string }): Promise<Project> {
    return this.call("PATCH", `/api/projects/${enc(id)}`, patch);
  }
  /** Removes the project and its sessions from Hermes Desk; files on disk stay. */
  deleteProject(id: string): Promise<void> {
    return this.call("DELETE", `/api/projects/${enc(id)}`);
  }
  async listSessions(projectId: string): Promise<Session[]> {
    return list<Session>(await this.call("GET", `/api/sessions?project_id=${enc(projectId)}`), "sessions");
  }
  /** The session with its messages; with `tail`, only its last `tail` messages. */
  async getSession(id: string, tail?: number): Promise<SessionDetail> {
    const v = await this.call<Record<string, unknown>>("GET", `/api/sessions/${enc(id)}${tail ? `?tail=${tail}` : ""}`);
    // Either the session with messages inline, or {session, messages}.
    const s = (v.session ?? v) as Session;
    return { ...s, messages: list(v.messages ?? [], "messages") };
  }
  /** workspace "worktree" makes a new git worktree first (from base, else the checkout's branch); docs/ARCHITECTURE.md §Workspaces. */
  createSession(req: { project_id: string; title?: string; agent: string; model?: string; profile?: string } & WorkspaceWhere): Promise<Session> {
    return this.call("POST", "/api/sessions", req);
  }
  /** config merges the session's kept settings ("" forgets one). */
  updateSession(id: string, patch: { title?: string; archived?: boolean; model?: string; config?: Record<string, string> }): Promise<Session> {
    return this.call("PATCH", `/api/sessions/${enc(id)}`, patch);
  }
  deleteSession(id: string): Promise<void> {
    return this.call("DELETE", `/api/sessions/${enc(id)}`);
  }
  // Workspaces (docs/ARCHITECTURE.md §Workspaces).
  async listWorkspaces(projectId: string): Promise<Workspace[]> {
    return list<Workspace>(await this.call("GET", `/api/projects/${enc(projectId)}/workspaces`), "workspaces");
  }
  /** The workspace checked against git, with its changed files, ahead/behind and size on disk. */
  workspace(id: string): Promise<WorkspaceDetail> {
    return this.call("GET", `/api/workspaces/${enc(id)}`);
  }
  /** Snapshots the worktree's files and removes it (the branch stays); a 409 says why not. */
  archiveWorkspace(id: string): Promise<Workspace> {
    return this.call("POST", `/api/workspaces/${enc(id)}/archive`, {});
  }
  restoreWorkspace(id: string): Promise<Workspace> {
    return this.call("POST", `/api/workspaces/${enc(id)}/restore`, {});
  }
  // The review of a worktree (docs/ARCHITECTURE.md §Review).
  review(id: string): Promise<Review> {
    return this.call("GET", `/api/workspaces/${enc(id)}/review`);
  }
  reviewDiff(id: string, path: string): Promise<ReviewFileDiff> {
    return this.call("GET", `/api/workspaces/${enc(id)}/review/diff?path=${enc(path)}`);
  }
  markViewed(id: string, path: string, blob: string, viewed: boolean): Promise<unknown> {
    return this.call("PUT", `/api/workspaces/${enc(id)}/review/viewed`, { path, blob, viewed });
  }
  addReviewComment(id: string, c: ReviewCommentRequest): Promise<ReviewComment> {
    return this.call("POST", `/api/workspaces/${enc(id)}/review/comments`, c);
  }
  editReviewComment(id: string, cid: string, text: string): Promise<ReviewComment> {
    return this.call("PATCH", `/api/workspaces/${enc(id)}/review/comments/${enc(cid)}`, { text });
  }
  deleteReviewComment(id: string, cid: string): Promise<unknown> {
    return this.call("DELETE", `/api/workspaces/${enc(id)}/review/comments/${enc(cid)}`);
  }
  sendReview(id: string): Promise<ReviewSendResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/review/send`, {});
  }
  revertFile(id: string, path: string): Promise<CheckpointResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/review/revert`, { path });
  }
  // Merge back (docs/ARCHITECTURE.md §Merge): a refusal is a 409 with its sentence.
  mergePreview(id: string, strategy: string): Promise<MergePreview> {
    return this.call("POST", `/api/workspaces/${enc(id)}/merge/preview`, { strategy });
  }
  mergeWorkspace(id: string, strategy: string, message: string): Promise<MergeResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/merge`, { strategy, message });
  }
  /** Starts a run in the workspace told which files conflict; preview again when it ends. */
  resolveMerge(id: string, strategy: string): Promise<ResolveMergeResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/merge/resolve`, { strategy });
  }
  pushWorkspace(id: string): Promise<PushResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/push`, {});
  }
  openPullRequest(id: string, title = "", body = ""): Promise<PullRequestResult> {
    return this.call("POST", `/api/workspaces/${enc(id)}/pr`, { title, body });
  }
  /** Moves a session that has not run yet (a new worktree, another workspace, or the checkout). */
  moveSession(id: string, where: WorkspaceWhere): Promise<Session> {
    return this.call("POST", `/api/sessions/${enc(id)}/workspace`, where);
  }
  // Checkpoints (docs/ARCHITECTURE.md §Checkpoints): a 409 names the files changed since.
  /** A new session whose worktree starts from the checkpoint before the turn, the conversation before it handed over. */
  forkSession(sessionId: string, turnId: string): Promise<Session> {
    return this.call("POST", `/api/sessions/${enc(sessionId)}/fork`, { turn: turnId });
  }
  undoRun(runId: string): Promise<CheckpointResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/undo`, {});
  }
  /** Undoes an undo or a restore (Redo). */
  undoCheckpoint(id: string): Promise<CheckpointResult> {
    return this.call("POST", `/api/checkpoints/${enc(id)}/undo`, {});
  }
  /** The files as they were before the turn; preview writes nothing, created files stay unless removeCreated. */
  restoreTurn(sessionId: string, turnId: string, opts: { preview?: boolean; removeCreated?: boolean } = {}): Promise<CheckpointResult> {
    const q = new URLSearchParams({ turn: turnId });
    if (opts.preview) q.set("preview", "1");
    if (opts.removeCreated) q.set("remove_created", "1");
    return this.call("POST", `/api/sessions/${enc(sessionId)}/restore?${q.toString()}`, {});
  }
  async sessionCheckpoints(sessionId: string): Promise<Checkpoint[]> {
    return list<Checkpoint>(await this.call("GET", `/api/sessions/${enc(sessionId)}/checkpoints`), "checkpoints");
  }
  checkpointUsage(): Promise<{ bytes: number; checkpoints: number; repositories: number }> {
    return this.call("GET", "/api/checkpoints/usage");
  }
  startRun(req: StartRunRequest): Promise<StartResult> {
    return this.call("POST", "/api/runs", req);
  }
  getRun(id: string): Promise<RunInfo> {
    return this.call("GET", `/api/runs/${enc(id)}`);
  }
  async listRuns(filter: { status?: "active"; project_id?: string; session_id?: string } = {}): Promise<RunInfo[]> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
    const qs = q.toString();
    return list<RunInfo>(await this.call("GET", `/api/runs${qs ? `?${qs}` : ""}`), "runs");
  }
  async eventsPage(runId: string, after: number, limit?: number): Promise<EventsPage> {
    const q = `after=${after}${limit ? `&limit=${limit}` : ""}`;
    return toEventsPage(await this.call("GET", `/api/runs/${enc(runId)}/events?${q}`));
  }
  /** The end of a run's log ("Open log" on an error). */
  runLog(runId: string): Promise<{ run_id: string; log: string }> {
    return this.call("GET", `/api/runs/${enc(runId)}/log`);
  }
  /** force: kill the agent at once (Force stop), also on a run already cancelling. */
  cancel(runId: string, force = false): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/cancel`, force ? { force: true } : {});
  }
  /** A run waiting for quota (parked) starts now, not at its reset. */
  resume(runId: string): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/resume`, {});
  }
  approve(runId: string, approvalId: string, choice: string): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/approvals/${enc(approvalId)}`, { choice });
  }
  clarify(runId: string, clarifyId: string, answer: string): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/clarify/${enc(clarifyId)}`, { answer });
  }
  queue(runId: string, message: string, clientRequestId: string): Promise<StartResult | ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/queue`, { message, client_request_id: clientRequestId });
  }
  setModel(runId: string, model: string): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/model`, { model });
  }
  /** Sets one of the agent's session settings (mode, thought level, a switch) while the run works. */
  setConfig(runId: string, option: string, value: string): Promise<ControlResult> {
    return this.call("POST", `/api/runs/${enc(runId)}/config`, { option, value });
  }
  /** A session (or one run) as Markdown or a portable bundle. */
  exportSession(id: string, format: "markdown" | "bundle", runId?: string): Promise<ExportFile> {
    const q = new URLSearchParams({ format });
    if (runId) q.set("run", runId);
    return this.call("GET", `/api/sessions/${enc(id)}/export?${q.toString()}`);
  }
  /**
   * Imports the bundle at a path on this machine as a read-only session, in
   * the Imported place or the project named; the same bundle again gives
   * the first session back with already_imported.
   */
  importBundle(path: string, projectId?: string): Promise<Session & { already_imported?: boolean }> {
    return this.call("POST", "/api/import", projectId ? { path, project_id: projectId } : { path });
  }
  /** The agents' own histories found on this machine (Settings → History). */
  async historySources(): Promise<HistorySource[]> {
    return (await this.call<HistorySource[] | null>("GET", "/api/history/sources")) ?? [];
  }
  /** Per source, the conversations never imported (the first-start offer; sources with none left out). */
  async historyOffer(): Promise<HistoryOffer[]> {
    return (await this.call<HistoryOffer[] | null>("GET", "/api/history/offer")) ?? [];
  }
  /** Imports a source's sessions (new turns only when imported before); mirror turns its watching on or off. */
  importHistory(source: string, mirror?: boolean): Promise<HistoryImportResult> {
    return this.call("POST", "/api/history/import", mirror === undefined ? { source } : { source, mirror });
  }
  /** Makes a session from an agent's own history an ordinary one, continued in that agent. */
  continueSession(id: string): Promise<Session> {
    return this.call("POST", `/api/sessions/${enc(id)}/continue`);
  }
  /** Usage totals (docs/ARCHITECTURE.md §Usage); since is YYYY-MM-DD, the last 30 days without it. */
  usage(group: UsageGroup, since?: string): Promise<UsageReport> {
    const q = new URLSearchParams({ group });
    if (since) q.set("since", since);
    return this.call("GET", `/api/usage?${q.toString()}`);
  }
  /** Every vendor's latest rate-limit window, as its agent reported it. */
  async quota(): Promise<QuotaLine[]> {
    return list<QuotaLine>(await this.call("GET", "/api/usage/quota"), "quota");
  }
  /** The same table as a CSV file. */
  usageCsv(group: UsageGroup, since?: string): Promise<ExportFile> {
    const q = new URLSearchParams({ group, format: "csv" });
    if (since) q.set("since", since);
    return this.call("GET", `/api/usage?${q.toString()}`);
  }
  async search(q: string): Promise<SearchHit[]> {
    return list<SearchHit>(await this.call("GET", `/api/search?q=${enc(q)}`), "hits");
  }
  getSettings(): Promise<Settings> {
    return this.call("GET", "/api/settings");
  }
  putSettings(s: Settings): Promise<Settings> {
    return this.call("PUT", "/api/settings", s);
  }
  /** The agents' health as last checked; refresh checks again (Settings' Re-check). */
  async agents(refresh = false): Promise<AgentInfo[]> {
    return list<AgentInfo>(await this.call("GET", refresh ? "/api/agents?refresh=1" : "/api/agents"), "agents");
  }
  /** Adds an agent (a 400 names the field that is wrong; nothing is saved then). */
  addAgent(d: AgentDefinition): Promise<AgentDefinition> {
    return this.call("POST", "/api/agents", d);
  }
  /** Changes an agent: the fields given. */
  updateAgent(id: string, patch: Partial<Omit<AgentDefinition, "id">>): Promise<AgentDefinition> {
    return this.call("PATCH", `/api/agents/${enc(id)}`, patch);
  }
  /** Removes an added agent (built-in ones cannot be removed). */
  removeAgent(id: string): Promise<void> {
    return this.call("DELETE", `/api/agents/${enc(id)}`);
  }
  /** The shipped ACP registry snapshot, for "Add agent". */
  agentRegistry(): Promise<AgentRegistry> {
    return this.call("GET", "/api/agents/registry");
  }
  /** The agent's models from its server, as last asked; refresh asks again. */
  agentModels(agent: string, refresh = false): Promise<AgentModels> {
    return this.call("GET", `/api/agents/${encodeURIComponent(agent)}/models${refresh ? "?refresh=1" : ""}`);
  }
  agentConfig(agent: string): Promise<AgentConfig> {
    return this.call("GET", `/api/agents/${encodeURIComponent(agent)}/config`);
  }
  /** The watch bus's state now (a snapshot message). */
  watchSnapshot(): Promise<WatchMessage> {
    return this.call("GET", "/api/watch");
  }
  /**
   * Tells the backend which session the window shows and whether it has the focus (notifications skip it).
   * Claims are per client: this page's id, so another tab's or window's report never clears or fakes this one's
   * (docs/ARCHITECTURE.md §Notifications).
   */
  setFocus(sessionId: string, focused: boolean): Promise<unknown> {
    return this.call("PUT", "/api/client/focus", { client_id: focusClientId, session_id: sessionId, focused });
  }
  // Schedules (docs/ARCHITECTURE.md §Schedules).
  async listSchedules(): Promise<Schedule[]> {
    return list<Schedule>(await this.call("GET", "/api/schedules"), "schedules");
  }
  createSchedule(req: ScheduleInput): Promise<Schedule> {
    return this.call("POST", "/api/schedules", req);
  }
  updateSchedule(id: string, patch: ScheduleInput): Promise<Schedule> {
    return this.call("PATCH", `/api/schedules/${enc(id)}`, patch);
  }
  deleteSchedule(id: string): Promise<void> {
    return this.call("DELETE", `/api/schedules/${enc(id)}`);
  }
  runSchedule(id: string): Promise<Firing> {
    return this.call("POST", `/api/schedules/${enc(id)}/run`, {});
  }
  async scheduleHistory(id: string): Promise<Firing[]> {
    return list<Firing>(await this.call("GET", `/api/schedules/${enc(id)}/history`), "firings");
  }
  previewSchedule(when: string, timezone: string): Promise<SchedulePreview> {
    return this.call("GET", `/api/schedules/preview?when=${enc(when)}&timezone=${enc(timezone)}`);
  }
  // Remote hosts over ssh (docs/ARCHITECTURE.md §Hosts).
  async hosts(): Promise<Host[]> {
    return list<Host>(await this.call("GET", "/api/hosts"), "hosts");
  }
  addHost(target: string): Promise<Host> {
    return this.call("POST", "/api/hosts", { target });
  }
  removeHost(id: string): Promise<void> {
    return this.call("DELETE", `/api/hosts/${enc(id)}`);
  }
}

/** This page load's id for its focus claims (PUT /api/client/focus). */
export const focusClientId: string =
  typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
