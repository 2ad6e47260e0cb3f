// Folds one run's normalized events (docs/ARCHITECTURE.md §Events; payload field names from
// backend/run/event.go) into its transcript model. Pure with respect to its
// input: the same events in the same order always give the same transcript.
// Ordering and duplicates are the feed's job (feed.ts); this assumes seq order.
import type { RunEvent, RunStatus } from "../transport/types";
import { nextState } from "./runState";
import type { ApprovalBlock, ApprovalOption, Block, ChangeTotals, FileTouch, ReasoningBlock, RunView, TextBlock, ToolBlock, Usage } from "./model";

/** Tool output kept per card; the head is dropped beyond this. */
export const MAX_TOOL_OUTPUT = 256 * 1024;
/** Raw envelopes kept for the inspector (between this and twice this). */
export const MAX_TIMELINE = 2000;

type P = Record<string, unknown>;
const obj = (v: unknown): P => (v && typeof v === "object" && !Array.isArray(v) ? (v as P) : {});
const str = (p: P, k: string): string | undefined => (typeof p[k] === "string" ? (p[k] as string) : undefined);
const num = (p: P, k: string): number | undefined => (typeof p[k] === "number" ? (p[k] as number) : undefined);

function push(v: RunView, b: Block): number {
  v.blocks.push(b);
  return v.blocks.length - 1;
}

function replace(v: RunView, i: number, b: Block): void {
  v.blocks[i] = b;
}

/** Ends the streaming text/reasoning blocks: something else came between. */
function closeStreams(v: RunView): void {
  if (v.openText >= 0) {
    const b = v.blocks[v.openText] as TextBlock;
    replace(v, v.openText, { ...b, done: true });
    v.openText = -1;
  }
  if (v.openReasoning >= 0) {
    const b = v.blocks[v.openReasoning] as ReasoningBlock;
    replace(v, v.openReasoning, { ...b, done: true });
    v.openReasoning = -1;
  }
}

/** Appends answer text; true when it only grew the block already streaming (see RunView.shape). */
function appendText(v: RunView, seq: number, text: string, done: boolean): boolean {
  if (text === "") return true;
  // Reasoning and answer text alternate; each switch starts a new block.
  let grew = !done;
  if (v.openReasoning >= 0) {
    const r = v.blocks[v.openReasoning] as ReasoningBlock;
    replace(v, v.openReasoning, { ...r, done: true });
    v.openReasoning = -1;
    grew = false;
  }
  if (v.openText >= 0) {
    const b = v.blocks[v.openText] as TextBlock;
    replace(v, v.openText, { ...b, text: b.text + text, done });
  } else {
    v.openText = push(v, { kind: "text", key: `${v.runId}:t${seq}`, seq, text, done });
    grew = false;
  }
  if (done) v.openText = -1;
  return grew;
}

/** Appends reasoning text; true when it only grew the block already streaming. */
function appendReasoning(v: RunView, seq: number, text: string, done: boolean): boolean {
  let grew = !done;
  if (v.openText >= 0) {
    const t = v.blocks[v.openText] as TextBlock;
    replace(v, v.openText, { ...t, done: true });
    v.openText = -1;
    grew = false;
  }
  if (v.openReasoning >= 0) {
    const b = v.blocks[v.openReasoning] as ReasoningBlock;
    if (text !== "" || done) replace(v, v.openReasoning, { ...b, text: b.text + text, done });
  } else {
    if (text === "" && !done) return grew;
    v.openReasoning = push(v, { kind: "reasoning", key: `${v.runId}:r${seq}`, seq, text, done });
    grew = false;
  }
  if (done) v.openReasoning = -1;
  return grew;
}

function clipOutput(s: string): { output: string; truncated: boolean } {
  if (s.length <= MAX_TOOL_OUTPUT) return { output: s, truncated: false };
  return { output: s.slice(s.length - MAX_TOOL_OUTPUT), truncated: true };
}

/**
 * Which entry the run's Changes view keeps for a file: the workspace
 * snapshot (the run's net change) over an agent's single edit; otherwise
 * the latest entry that says what changed over one that only names the file.
 */
export function betterChange(next: FileTouch, prev: FileTouch): boolean {
  if (prev.source === "workspace" && next.source !== "workspace") return false;
  if (next.source === "workspace") return true;
  if (next.diff || next.binary) return true;
  return !prev.diff && !prev.binary;
}

/** Totals of a run's change set. */
export function changeTotals(files: FileTouch[]): ChangeTotals {
  let added = 0;
  let removed = 0;
  let n = 0;
  for (const f of files) {
    if (!knownChange(f)) continue;
    n++;
    added += f.added ?? 0;
    removed += f.removed ?? 0;
  }
  return { files: n, added, removed };
}

/**
 * Whether a file.changed says the file really changed: created, deleted,
 * binary, or lines added or removed. A rewrite with the same content (or an
 * agent naming a file it wrote without a diff) says none of that, and is
 * not counted as "1 file changed, +0 −0" (issue 23, polish); the Changes
 * view still lists it.
 */
export function knownChange(f: FileTouch): boolean {
  return !!f.binary || f.action === "created" || f.action === "deleted" || (f.added ?? 0) > 0 || (f.removed ?? 0) > 0;
}

function tool(v: RunView, id: string, seq: number): { i: number; b: ToolBlock } {
  const k = `tool:${id}`;
  const i = v.index.get(k);
  if (i !== undefined) return { i, b: v.blocks[i] as ToolBlock };
  // An update for a call we never saw start (tail window, agent quirk):
  // open a card for it rather than drop what it says.
  closeStreams(v);
  const b: ToolBlock = {
    kind: "tool",
    key: `${v.runId}:tool:${id}`,
    seq,
    toolCallId: id,
    name: "tool",
    output: "",
    truncated: false,
    status: "running",
  };
  const at = push(v, b);
  v.index.set(k, at);
  return { i: at, b };
}

/** Merges a final output with what was streamed without showing it twice. */
function mergeFinalOutput(streamed: string, final: string): string {
  if (final === "" || streamed.endsWith(final)) return streamed;
  if (streamed === "" || final.startsWith(streamed)) return final;
  return streamed + (streamed.endsWith("\n") ? "" : "\n") + final;
}

function usage(p: unknown): Usage | undefined {
  const u = obj(p);
  return Object.keys(u).length ? (u as Usage) : undefined;
}

/**
 * Keeps every approval still waiting, oldest first. The state machine
 * (runState.ts, the journal's) follows one prompt; an agent may ask a
 * second before the first is answered, and resolving either must not
 * read "running" while the other still waits (issue 21.10). The oldest
 * is the pending one: its card takes the keys.
 */
function trackApprovals(v: RunView, type: string, p: P): void {
  const before = v.pendingApprovals[0];
  const id = type === "approval.requested" || type === "approval.resolved" ? str(p, "approval_id") : undefined;
  if (type === "approval.requested" && id && !v.pendingApprovals.includes(id) && !v.index.has(`approval:${id}`)) {
    v.pendingApprovals = [...v.pendingApprovals, id];
  } else if (type === "approval.resolved" && id) {
    v.pendingApprovals = v.pendingApprovals.filter((x) => x !== id);
  }
  if (v.terminal || type === "done") v.pendingApprovals = [];
  const oldest = v.pendingApprovals[0];
  if (oldest) {
    v.pendingApprovalId = oldest;
    if (v.status === "running") v.status = "awaiting_approval";
  }
  if (before !== oldest) {
    markCurrent(v, before, false);
    markCurrent(v, oldest, true);
  }
}

function markCurrent(v: RunView, id: string | undefined, current: boolean): void {
  const i = id ? v.index.get(`approval:${id}`) : undefined;
  if (i === undefined) return;
  const b = v.blocks[i] as ApprovalBlock;
  if (!!b.current !== current) replace(v, i, { ...b, current });
}

/**
 * Applies one event. Unknown types only reach the timeline. Bumps the
 * view's shape unless the event only changed what one existing block shows
 * (text streaming into the open block, output into an open tool card).
 */
export function applyEvent(v: RunView, ev: RunEvent): void {
  const p = obj(ev.payload);
  const status = v.status;
  const approval = v.pendingApprovalId;
  const clarify = v.pendingClarifyId;
  const inPlace = applyPayload(v, ev, p) === true;
  if (!inPlace || v.status !== status || v.pendingApprovalId !== approval || v.pendingClarifyId !== clarify) v.shape++;
}

/** applyEvent's body; true when the event changed only one existing block's content. */
function applyPayload(v: RunView, ev: RunEvent, p: P): boolean | void {
  const seq = ev.seq;
  if (!v.sessionId && ev.session_id) v.sessionId = ev.session_id;
  if (v.startedAt === undefined) v.startedAt = ev.created_at;
  v.lastSeq = Math.max(v.lastSeq, seq);
  v.timeline.push(ev);
  // Trim in batches: one splice per MAX_TIMELINE events, not one per event.
  if (v.timeline.length >= 2 * MAX_TIMELINE) v.timeline.splice(0, v.timeline.length - MAX_TIMELINE);
  v.version++;

  // Status and pending prompts move by the one state machine (runState.ts).
  const st = nextState(
    { status: v.status, pendingApprovalId: v.pendingApprovalId, pendingClarifyId: v.pendingClarifyId, resumesAt: v.resumesAt, parkAttempts: v.parkAttempts },
    ev.type,
    p,
  );
  v.status = st.status as RunView["status"];
  v.pendingApprovalId = st.pendingApprovalId;
  v.pendingClarifyId = st.pendingClarifyId;
  v.resumesAt = st.resumesAt;
  v.parkAttempts = st.parkAttempts;
  trackApprovals(v, ev.type, p);

  switch (ev.type) {
    case "run.started":
      v.agent = str(p, "agent") ?? v.agent;
      v.model = str(p, "model") ?? v.model;
      v.workspace = str(p, "workspace") ?? v.workspace;
      return;
    case "status":
      v.statusDetail = str(p, "detail");
      return;
    case "message.user": {
      const id = str(p, "message_id") ?? `seq${seq}`;
      if (v.index.has(`user:${id}`)) return;
      closeStreams(v);
      v.index.set(`user:${id}`, push(v, { kind: "user", key: `${v.runId}:u${seq}`, seq, messageId: id, text: str(p, "text") ?? "" }));
      return;
    }
    case "token.delta":
      return appendText(v, seq, str(p, "text") ?? "", false);
    case "reasoning.delta":
      return appendReasoning(v, seq, str(p, "text") ?? "", false);
    case "reasoning.done": {
      const full = str(p, "text") ?? "";
      if (v.openReasoning >= 0) {
        const b = v.blocks[v.openReasoning] as ReasoningBlock;
        // The assembled block is authoritative when the agent sends one.
        replace(v, v.openReasoning, { ...b, text: full || b.text, done: true });
        v.openReasoning = -1;
      } else if (full) {
        appendReasoning(v, seq, full, true);
      }
      return;
    }
    case "compacted": {
      // Stands in for token-level events of a terminal run: render exactly
      // what the deltas would have rendered.
      const r = str(p, "reasoning") ?? "";
      const t = str(p, "text") ?? "";
      if (r) appendReasoning(v, seq, r, false);
      if (t) appendText(v, seq, t, false);
      return;
    }
    case "progress":
      v.progress = { message: str(p, "message") ?? "", percent: num(p, "percent") };
      return;
    case "plan.updated": {
      const entries = Array.isArray(p.entries) ? (p.entries as P[]).map((e) => ({
        content: str(e, "content") ?? "",
        status: str(e, "status") ?? "pending",
        priority: str(e, "priority"),
      })) : [];
      if (v.planAt >= 0) {
        replace(v, v.planAt, { ...(v.blocks[v.planAt] as Block & { kind: "plan" }), entries });
      } else {
        closeStreams(v);
        v.planAt = push(v, { kind: "plan", key: `${v.runId}:plan`, seq, entries });
      }
      return;
    }
    case "tool.started": {
      const id = str(p, "tool_call_id") ?? `seq${seq}`;
      const existed = v.index.has(`tool:${id}`);
      const { i, b } = tool(v, id, seq);
      replace(v, i, {
        ...b,
        name: str(p, "name") ?? b.name,
        title: str(p, "title") ?? b.title,
        toolKind: str(p, "kind") ?? b.toolKind,
        input: p.input ?? b.input,
        locations: Array.isArray(p.locations) ? (p.locations as string[]) : b.locations,
        startedAt: ev.created_at,
        status: existed ? b.status : "running",
      });
      return;
    }
    case "tool.updated": {
      const id = str(p, "tool_call_id");
      if (!id) return true;
      const existed = v.index.has(`tool:${id}`);
      const { i, b } = tool(v, id, seq);
      const out = clipOutput(b.output + (str(p, "output") ?? ""));
      const status = b.status === "running" || b.status === "pending" ? (str(p, "status") ?? b.status) : b.status;
      replace(v, i, {
        ...b,
        title: str(p, "title") ?? b.title,
        // Input that arrived after the call started replaces the card's (never {}).
        input: p.input ?? b.input,
        status,
        output: out.output,
        truncated: b.truncated || out.truncated,
      });
      // Output streaming into a card: only the card re-renders.
      return existed && status === b.status;
    }
    case "tool.done": {
      const id = str(p, "tool_call_id");
      if (!id) return;
      const { i, b } = tool(v, id, seq);
      const out = clipOutput(mergeFinalOutput(b.output, str(p, "output") ?? ""));
      replace(v, i, {
        ...b,
        status: str(p, "status") ?? "completed",
        output: out.output,
        truncated: b.truncated || out.truncated,
        exitCode: num(p, "exit_code"),
        durationMs: num(p, "duration_ms") ?? (b.startedAt !== undefined ? Math.round((ev.created_at - b.startedAt) * 1000) : undefined),
        error: str(p, "error"),
      });
      return;
    }
    case "file.changed": {
      const path = str(p, "path");
      if (!path) return;
      const f: FileTouch = {
        path,
        action: str(p, "action"),
        seq,
        diff: str(p, "diff") || undefined,
        added: num(p, "added"),
        removed: num(p, "removed"),
        binary: p.binary === true || undefined,
        truncated: p.truncated === true || undefined,
        notCompared: str(p, "not_compared"),
        toolCallId: str(p, "tool_call_id"),
        source: str(p, "source"),
      };
      const at = v.files.findIndex((x) => x.path === path);
      if (at < 0) v.files.push(f);
      else if (betterChange(f, v.files[at]!)) v.files[at] = f;
      const ti = f.toolCallId ? v.index.get(`tool:${f.toolCallId}`) : undefined;
      if (ti !== undefined) {
        const b = v.blocks[ti] as ToolBlock;
        replace(v, ti, { ...b, changes: [...(b.changes ?? []).filter((x) => x.path !== path), f] });
      }
      return;
    }
    case "approval.requested": {
      const id = str(p, "approval_id") ?? `seq${seq}`;
      if (v.index.has(`approval:${id}`)) return;
      closeStreams(v);
      const options: ApprovalOption[] = Array.isArray(p.options)
        ? (p.options as P[]).map((o) => ({ id: str(o, "id") ?? "", label: str(o, "label") ?? str(o, "id") ?? "", kind: str(o, "kind") }))
        : [];
      v.index.set(`approval:${id}`, push(v, {
        kind: "approval",
        key: `${v.runId}:a:${id}`,
        seq,
        approvalId: id,
        toolCallId: str(p, "tool_call_id"),
        title: str(p, "title") ?? "The agent asks for permission",
        description: str(p, "description"),
        command: str(p, "command"),
        toolKind: str(p, "kind"),
        locations: Array.isArray(p.locations) ? (p.locations as unknown[]).filter((l): l is string => typeof l === "string") : undefined,
        diff: str(p, "diff") || undefined,
        input: p.input ?? undefined,
        unexplained: p.unexplained === true || undefined,
        options,
        current: v.pendingApprovals[0] === id,
      }));
      return;
    }
    case "approval.resolved": {
      const id = str(p, "approval_id");
      const i = id ? v.index.get(`approval:${id}`) : undefined;
      if (i !== undefined) {
        const b = v.blocks[i] as Block & { kind: "approval" };
        replace(v, i, { ...b, resolved: { choice: str(p, "choice") ?? "", by: str(p, "by") } });
      }
      return;
    }
    case "clarify.requested": {
      const id = str(p, "clarify_id") ?? `seq${seq}`;
      if (v.index.has(`clarify:${id}`)) return;
      closeStreams(v);
      v.index.set(`clarify:${id}`, push(v, {
        kind: "clarify",
        key: `${v.runId}:c:${id}`,
        seq,
        clarifyId: id,
        question: str(p, "question") ?? "",
        choices: Array.isArray(p.choices) ? (p.choices as unknown[]).filter((c): c is string => typeof c === "string") : [],
      }));
      return;
    }
    case "clarify.resolved": {
      const id = str(p, "clarify_id");
      const i = id ? v.index.get(`clarify:${id}`) : undefined;
      if (i !== undefined) {
        const b = v.blocks[i] as Block & { kind: "clarify" };
        replace(v, i, { ...b, answer: str(p, "answer") ?? "" });
      }
      return;
    }
    case "commands.updated":
      v.commands = Array.isArray(p.commands)
        ? (p.commands as P[]).map((c) => ({ name: str(c, "name") ?? "", description: str(c, "description") }))
        : [];
      return;
    case "mode.updated":
      v.mode = str(p, "mode") ?? v.mode;
      // The mode selector among the settings follows (current_mode_update).
      if (v.mode && v.config) v.config = v.config.map((o) => (o.category === "mode" && o.type === "select" ? { ...o, current: v.mode! } : o));
      return;
    case "config.updated":
      if (Array.isArray(p.options)) {
        v.config = (p.options as unknown[]).map(obj).filter((o) => str(o, "id")).map((o) => ({
          id: str(o, "id")!,
          name: str(o, "name") ?? str(o, "id")!,
          description: str(o, "description"),
          category: str(o, "category"),
          type: str(o, "type") ?? "select",
          current: str(o, "current") ?? "",
          values: Array.isArray(o.values)
            ? (o.values as unknown[]).map(obj).filter((x) => str(x, "id")).map((x) => ({ id: str(x, "id")!, name: str(x, "name"), description: str(x, "description") }))
            : [],
        }));
        const mode = v.config.find((o) => o.category === "mode" && o.type === "select");
        if (mode?.current) v.mode = mode.current;
      }
      return;
    case "model.updated":
      v.model = str(p, "model") ?? v.model;
      if (Array.isArray(p.available)) {
        v.models = (p.available as P[]).map((m) => ({ id: str(m, "id") ?? "", name: str(m, "name"), description: str(m, "description") })).filter((m) => m.id);
      }
      return;
    case "title.updated":
      v.title = str(p, "title") ?? v.title;
      return;
    case "usage.updated":
    case "usage.final":
      // Both carry a run.Usage as the whole payload (backend/run/event.go PayloadOf).
      v.usage = usage(p) ?? v.usage;
      return;
    case "error":
      closeStreams(v);
      push(v, { kind: "error", key: `${v.runId}:e${seq}`, seq, message: str(p, "message") ?? "The run reported an error", code: str(p, "code"), detail: str(p, "detail") });
      return;
    case "notice": {
      const message = str(p, "message");
      if (!message) return;
      closeStreams(v);
      push(v, { kind: "notice", key: `${v.runId}:n${seq}`, seq, message });
      return;
    }
    case "done": {
      closeStreams(v);
      v.terminal = true;
      v.endedAt = ev.created_at;
      v.progress = undefined;
      // The final count keeps the context figures an earlier usage.updated
      // gave when it has none (ACP reports them only as updates).
      const final = usage(p.usage);
      const u = final && {
        ...(v.usage?.context_tokens ? { context_tokens: v.usage.context_tokens, context_window: v.usage.context_window } : {}),
        ...final,
      };
      if (u) v.usage = u;
      // Tool cards still open when the run ended did not finish.
      for (const [k, i] of v.index) {
        if (!k.startsWith("tool:")) continue;
        const b = v.blocks[i] as ToolBlock;
        if (b.status === "running" || b.status === "pending" || b.status === "in_progress") {
          replace(v, i, { ...b, status: v.status === "completed" ? "completed" : v.status });
        }
      }
      push(v, {
        kind: "done",
        key: `${v.runId}:done`,
        seq,
        changes: ((t) => (t.files > 0 ? t : undefined))(changeTotals(v.files)),
        status: v.status as RunStatus,
        error: str(p, "error"),
        exitCode: num(p, "exit_code"),
        durationMs: num(p, "duration_ms"),
        usage: u,
        stopReason: str(p, "stop_reason"),
      });
      return;
    }
    default:
      // An open list (docs/ARCHITECTURE.md §Events): a type this build does not know is shown
      // only in the raw timeline.
      return;
  }
}
