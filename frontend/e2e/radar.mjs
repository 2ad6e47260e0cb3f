// The conflict radar from the window (issue 27, docs/ARCHITECTURE.md
// §Conflict radar), against the real `serve`, shims, the test kit's demo
// agent and a real git repository: two sessions, each in its own worktree,
// rewrite the same line of readme.txt (`/scenario radar`); both sidebar
// chips show "readme.txt also changed in <branch>" and the header's
// "Overlaps with <branch>: readme.txt",
// the badge opens on the lines and the suggested merge order, and
// GET /api/projects/{id}/conflicts agrees; the worktree's Review marks the
// file and names the other worktree and the line. While the runs and the radar
// work, the page's main thread is watched for long tasks (PerformanceObserver
// "longtask", over 50 ms): their count and longest are printed, and more
// than --max-longtask-ms fails. 420 and 1280 px, light and dark, never
// wider than the window; screenshots e2e/out/radar-*.png.
//
//   node e2e/radar.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/git/repo
import { join } from "node:path";
import { out, arg, launch, report, pageApi, failed, openApp, required, looks, shortBranch } from "./harness.mjs";

const [url, project] = required("node e2e/radar.mjs --url LOGIN_URL --project GIT_REPO [--max-longtask-ms 50]", "--url", "--project");
const maxLongTask = Number(arg("--max-longtask-ms", "50"));

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const sessions = [];
  for (const title of ["Radar one", "Radar two"]) sessions.push(await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title, workspace: "worktree" }));
  const made = await call("GET", `/api/projects/${proj.id}/workspaces`);
  const ws = sessions.map((s) => made.find((w) => w.id === s.workspace_id));
  if (ws.some((w) => !w)) throw new Error("a session has no worktree");
  await page.reload({ waitUntil: "domcontentloaded" });
  const nav = page.getByRole("navigation", { name: "Projects and sessions" });
  for (const w of ws) await nav.locator(`[data-workspace-group="${w.id}"]`).waitFor({ timeout: 10_000 });

  // Long tasks from here on: the runs, their transcripts, the radar's answer.
  const observing = await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => window.__longtasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask" });
    return PerformanceObserver.supportedEntryTypes.includes("longtask");
  });
  if (!observing) problems.push("this Chromium does not report long tasks: the main thread cannot be watched");
  const started = Date.now();
  for (const s of sessions) await call("POST", "/api/runs", { session_id: s.id, message: "/scenario radar", client_request_id: `radar-${s.id}` });
  await waitIdle();
  const ranMs = Date.now() - started;
  for (const [i, w] of ws.entries()) {
    const other = ws[1 - i];
    const badge = nav.locator(`[data-workspace-group="${w.id}"] .radar-badge`);
    await badge.waitFor({ timeout: 30_000 });
    const text = ((await badge.textContent()) ?? "").trim();
    console.log(`radar: sidebar chip of ${shortBranch(w)}: "${text}"`);
    if (text !== `readme.txt also changed in ${shortBranch(other)}`) problems.push(`the chip of ${shortBranch(w)} says "${text}"`);
  }
  const shownMs = Date.now() - started;
  const long = await page.evaluate(() => [...window.__longtasks]);
  // The observer does see one: a deliberate 80 ms task is reported.
  await page.evaluate(() =>
    setTimeout(() => {
      const until = performance.now() + 80;
      while (performance.now() < until);
    }, 0),
  );
  await page.waitForFunction((n) => window.__longtasks.length > n, long.length, { timeout: 5_000 }).catch(() => problems.push("a deliberate 80 ms task was not reported: the long-task watch sees nothing"));
  const longest = long.length ? Math.max(...long) : 0;
  console.log(`radar: runs done in ${ranMs} ms, both chips show the overlap ${shownMs} ms after the runs started; main-thread tasks over 50 ms meanwhile: ${long.length}, longest ${Math.round(longest)} ms`);
  if (long.length > 0 && longest > maxLongTask) problems.push(`a main-thread task of ${Math.round(longest)} ms while the radar ran (bar ${maxLongTask} ms)`);

  const answer = await call("GET", `/api/projects/${proj.id}/conflicts`);
  console.log(`radar: GET conflicts: ${answer.overlaps.length} overlap(s), files ${answer.overlaps.flatMap((o) => o.files.map((f) => f.path)).join(", ")}, order ${answer.order.map((id) => shortBranch(ws.find((w) => w.id === id) ?? { id })).join(" → ")}, lines ${JSON.stringify(answer.lines)}`);
  if (answer.overlaps.length !== 1 || answer.order.length !== 2) problems.push(`the route answers ${JSON.stringify(answer)}`);

  // The header's chip too, and its menu: the lines and the merge order.
  await nav.getByText("Radar one").click();
  const head = page.locator(".main-head");
  const headBadge = head.locator(".radar-badge");
  await headBadge.waitFor({ timeout: 10_000 });
  await headBadge.click();
  const menu = head.locator(".radar-menu");
  await menu.waitFor({ timeout: 5_000 });
  const menuText = (await menu.textContent()) ?? "";
  if (!menuText.includes("Suggested merge order") || !menuText.includes("— this one") || !menuText.includes("readme.txt")) problems.push(`the badge's menu says "${menuText}"`);
  // Seen, not clipped by the header: the point at its middle is the menu's.
  const visible = async (loc) => loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
    return r.width > 100 && r.height > 40 && !!hit && el.contains(hit);
  });
  // What is where, for a failure's message.
  const where = async (loc) => loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
    return `menu at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)} in a ${window.innerWidth}×${window.innerHeight} window; its middle shows ${hit ? hit.tagName + "." + hit.className : "nothing"}`;
  });
  if (!(await visible(menu))) problems.push(`the header badge's menu is hidden or clipped (${await where(menu)})`);
  await page.screenshot({ path: join(out, "radar-menu-1280.png") });
  await headBadge.click(); // closed again
  const sideBadge = nav.locator(`[data-workspace-group="${ws[1].id}"] .radar-badge`);
  await sideBadge.click();
  const sideMenu = nav.locator(`[data-workspace-group="${ws[1].id}"] .radar-menu`);
  if (!(await visible(sideMenu))) problems.push(`the sidebar badge's menu is hidden or clipped (${await where(sideMenu)})`);
  await page.screenshot({ path: join(out, "radar-menu-sidebar-1280.png") });
  await sideBadge.click();

  // The review of the worktree says it too: the file marked, which
  // worktree changes which of its lines, the merge order; Esc closes it.
  await head.getByRole("button", { name: /^Review the worktree/ }).click();
  const review = page.getByRole("dialog", { name: /^Review of/ });
  const note = review.locator(".rv-radar");
  await note.waitFor({ timeout: 10_000 });
  const noteText = ((await note.textContent()) ?? "").trim();
  console.log(`radar: the review of ${shortBranch(ws[0])} says "${noteText}"`);
  if (!noteText.includes(`Also changed by ${shortBranch(ws[1])}: line 1`) || !noteText.includes("Suggested merge order")) problems.push(`the review's radar note says "${noteText}"`);
  if ((await review.getByLabel("Another worktree changes this file too").count()) !== 1) problems.push("the review's file list does not mark readme.txt");
  if ((await review.locator(".rv-overlap").count()) < 1) problems.push("no line of the review's diff is marked as changed by the other worktree");
  await page.screenshot({ path: join(out, "radar-review-1280.png") });
  await page.keyboard.press("Escape");
  await review.waitFor({ state: "detached", timeout: 5_000 });

  for (const width of [1280, 420]) {
    for (const scheme of ["light", "dark"]) {
      const at = `${width} px ${scheme}`;
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `radar-${width}-${scheme}.png`) });
      const m = await page.evaluate(() => {
        const badges = [...document.querySelectorAll(".radar-badge")].filter((b) => b.getClientRects().length > 0).map((b) => b.getBoundingClientRect());
        return { page: document.documentElement.scrollWidth - window.innerWidth, vw: window.innerWidth, shown: badges.length, past: badges.filter((r) => r.right > window.innerWidth + 1).length };
      });
      // A sidebar group's Archive and Review stay on the chip's line (a long
      // branch once pushed them onto a line of their own).
      const rows = await nav.locator("[data-workspace-group] .ws-group-head .ws").evaluateAll((list) =>
        list.filter((ws) => ws.getClientRects().length > 0).map((ws) => {
          const mid = (el) => (el ? el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2 : NaN);
          return { chip: mid(ws.querySelector(".ws-chip")), acts: [...ws.querySelectorAll(".ws-act")].map(mid) };
        }),
      );
      for (const r of rows) if (r.acts.some((y) => Math.abs(y - r.chip) > 3)) problems.push(`${at}: a sidebar group's buttons are not on its chip's line (${JSON.stringify(r)})`);
      console.log(`radar ${at}: ${m.shown} badge(s) shown, page overflow ${m.page} px, ${rows.length} sidebar group(s) on one line: ${rows.every((r) => r.acts.every((y) => Math.abs(y - r.chip) <= 3))}`);
      if (m.page > 1) problems.push(`${at}: the page is ${m.page} px wider than the window`);
      if (m.shown === 0) problems.push(`${at}: no overlap badge is shown`);
      if (m.past > 0) problems.push(`${at}: a badge reaches past the window`);
    }
  }
  await ctx.close();
} catch (e) {
  await failed("radar", e, problems, page);
} finally {
  await browser.close();
}
report("radar", problems);
