// Fixture answers for /api/* so screenshots show a real-looking session
// without a backend. Shapes follow docs/ARCHITECTURE.md §API and backend/run.
const now = Date.now();
const iso = (msAgo) => new Date(now - msAgo).toISOString();
const H = 3600_000;

const project = { id: "p1", name: "hermesdesk", workspace: "/home/me/code/hermesdesk", created_at: iso(90 * 24 * H) };
const sessions = [
  { id: "s1", project_id: "p1", title: "Fix the flaky journal test", agent: "claude", model: "sonnet-4.5", created_at: iso(2 * H), updated_at: iso(60_000) },
  { id: "s2", project_id: "p1", title: "Dark theme tokens", agent: "hermes", created_at: iso(26 * H), updated_at: iso(25 * H) },
  { id: "s3", project_id: "p1", title: "Explain the shim protocol", agent: "codex", created_at: iso(30 * H), updated_at: iso(29 * H) },
  { id: "s4", project_id: "p1", title: "Package as .deb", agent: "gemini", created_at: iso(5 * 24 * H), updated_at: iso(5 * 24 * H) },
];
const p2 = { id: "p2", name: "website", workspace: "/home/me/code/website" };
const p2s = [{ id: "s5", project_id: "p2", title: "Update the landing copy", agent: "demo", updated_at: iso(3 * H) }];

let seq = 0;
function ev(run, type, payload, t = 0) {
  seq = run.last + 1;
  run.last = seq;
  return { event_id: `${run.id}:${seq}`, seq, run_id: run.id, session_id: "s1", type, created_at: (now - t) / 1000, terminal: type === "done", payload };
}
const ra = { id: "run_a", last: 0 };
const rl = { id: "run_live", last: 0 };
const textA = [
  "The test reads the journal while the writer's group commit is still open, so it sometimes sees ",
  "the first half of a batch. I'll make it wait for the commit notification instead of sleeping.\n\n",
  "```go\nfunc waitCommitted(t *testing.T, j *Journal, seq int64) {\n\tt.Helper()\n\tselect {\n\tcase <-j.Committed(seq):\n\tcase <-time.After(5 * time.Second):\n\t\tt.Fatalf(\"seq %d never committed\", seq)\n\t}\n}\n```\n\n",
  "Changed `journal_test.go` and ran it 200 times: **no failures**. See [the Go docs](https://pkg.go.dev/testing) — ",
  "and this [bad link](javascript:window.__pwned=1) stays text. <img src=x onerror=\"window.__pwned=2\">",
];
const evA = [
  ev(ra, "run.started", { agent: "claude", model: "sonnet-4.5" }, 600_000),
  ev(ra, "message.user", { message_id: "m1", text: "TestAppendBatch fails about one run in ten. Find out why and fix it." }, 600_000),
  ev(ra, "reasoning.delta", { text: "The failure mentions a short read. Likely a race between the appender and the reader; check how the test waits." }, 599_000),
  ev(ra, "reasoning.done", { text: "" }, 598_000),
  ev(ra, "tool.started", { tool_call_id: "t1", name: "Read", kind: "read", input: { file_path: "backend/journal/journal_test.go" } }, 597_000),
  ev(ra, "tool.done", { tool_call_id: "t1", status: "completed", output: "package journal\n…", duration_ms: 42 }, 596_900),
  ev(ra, "tool.started", { tool_call_id: "t2", name: "Bash", kind: "execute", input: { command: "go test -race -count=200 -run TestAppendBatch ./backend/journal/" } }, 590_000),
  ev(ra, "tool.updated", { tool_call_id: "t2", output: "ok  \tgithub.com/hermesdesk/hermesdesk/backend/journal\t38.112s\n" }, 552_000),
  ev(ra, "tool.done", { tool_call_id: "t2", status: "completed", exit_code: 0, duration_ms: 38112 }, 551_800),
  ev(ra, "file.changed", { path: "backend/journal/journal_test.go", action: "modified" }, 551_000),
  ...textA.map((t) => ev(ra, "token.delta", { text: t }, 550_000)),
  ev(ra, "usage.final", { input_tokens: 18234, output_tokens: 1422 }, 549_000),
  ev(ra, "done", { status: "completed", duration_ms: 51234, usage: { input_tokens: 18234, output_tokens: 1422 } }, 549_000),
];
const evL = [
  ev(rl, "run.started", { agent: "claude", model: "sonnet-4.5" }, 90_000),
  ev(rl, "message.user", { message_id: "m3", text: "Good. Now run the whole suite and clean up the temp dirs it leaves." }, 90_000),
  ev(rl, "token.delta", { text: "Running the full suite first, then I'll remove the leftover temp directories." }, 85_000),
  ev(rl, "tool.started", { tool_call_id: "t3", name: "Bash", kind: "execute", input: { command: "make test-go" } }, 80_000),
  ev(rl, "tool.updated", { tool_call_id: "t3", output: "go vet -tags sqlite_fts5,webkit2_41 ./...\n" }, 79_000),
  ev(rl, "tool.done", { tool_call_id: "t3", status: "failed", exit_code: 2, duration_ms: 61020, output: "--- FAIL: TestShimAdopt (3.01s)" }, 19_000),
  ev(rl, "plan.updated", { entries: [{ content: "Run the suite", status: "completed" }, { content: "Remove leftover temp dirs", status: "in_progress" }, { content: "Re-run the failing test", status: "pending" }] }, 18_000),
  ev(rl, "approval.requested", { approval_id: "ap1", tool_call_id: "t4", title: "Run a shell command", description: "Claude wants to delete 14 temporary directories under /tmp.", command: "rm -rf /tmp/hermesdesk-test-*", options: [{ id: "allow_once", label: "Allow once", kind: "allow_once" }, { id: "allow_always", label: "Always allow rm in /tmp", kind: "allow_always" }, { id: "reject", label: "Deny", kind: "reject_once" }] }, 15_000),
];
const runs = {
  run_a: { id: "run_a", session_id: "s1", status: "completed", last_seq: ra.last, terminal: true, events: evA },
  run_live: { id: "run_live", session_id: "s1", status: "awaiting_approval", last_seq: rl.last, terminal: false, pending_approval_id: "ap1", events: evL },
};
const detail = {
  ...sessions[0],
  messages: [
    { id: "m1", session_id: "s1", role: "user", content: "TestAppendBatch fails about one run in ten. Find out why and fix it." },
    { id: "m2", session_id: "s1", role: "assistant", content: textA.join(""), run_id: "run_a", run: runs.run_a },
    { id: "m3", session_id: "s1", role: "user", content: "Good. Now run the whole suite and clean up the temp dirs it leaves." },
    { id: "m4", session_id: "s1", role: "assistant", content: "", run_id: "run_live", run: runs.run_live },
  ],
};

export async function mockApi(page) {
  await page.addInitScript(() => {
    localStorage.setItem("hermesdesk.project", JSON.stringify("p1"));
    localStorage.setItem("hermesdesk.session", JSON.stringify("s1"));
    localStorage.setItem("hermesdesk.seen", JSON.stringify({ s3: "2000-01-01T00:00:00Z" }));
  });
  await page.route("**/api/**", async (route) => {
    const url = new URL(route.request().url());
    const p = url.pathname;
    const json = (body, status = 200) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
    if (p === "/api/health") return route.fulfill({ status: 200, body: "ok" });
    if (p === "/api/projects") return json([project, p2]);
    if (p === "/api/sessions") return json(url.searchParams.get("project_id") === "p2" ? p2s : sessions);
    if (p === "/api/sessions/s1") return json(detail);
    if (p === "/api/agents") return json([{ name: "claude", version: "2.1.197", installed: true }, { name: "demo", installed: true }]);
    if (p === "/api/runs") return json([{ ...runs.run_live, events: undefined }]);
    const m = /^\/api\/runs\/([^/]+)\/events$/.exec(p);
    if (m) {
      const r = runs[m[1]];
      if (!r) return json({ error: { code: "not_found", message: "No such run" } }, 404);
      const after = Number(url.searchParams.get("after") ?? 0);
      if ((route.request().headers().accept ?? "").includes("text/event-stream")) {
        // The live run's last events arrive only over SSE, so the approval
        // card on screen proves the browser's SSE path end to end.
        const frames = r.events.filter((e) => e.seq > after).map((e) => `id: ${e.event_id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
        return route.fulfill({ status: 200, contentType: "text/event-stream", body: `retry: 60000\n: hello\n\n${frames.join("")}` });
      }
      const page = r.terminal ? r.events : r.events.slice(0, r.events.length - 2);
      return json({ events: page.filter((e) => e.seq > after) });
    }
    return json({ error: { code: "not_found", message: "Not found" } }, 404);
  });
}
