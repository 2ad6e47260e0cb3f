// Workspaces from the window (issue 25, docs/ARCHITECTURE.md §Workspaces),
// against the real `serve` and a real git repository: a new session in a
// new worktree from the new-session view, the header's chip names its
// branch, a second worktree session runs at the same time (both runs wait
// on an approval: live together, each in its own folder), Archive is
// refused with the service's sentence while a run is live, then archived
// and restored from "Recently archived" — the worktree's folder back. The
// header and sidebar at 420, 720 and 1280 px, light and dark, never wider
// than the window; screenshots e2e/out/workspaces-*.png.
//
//   node e2e/workspaces.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/git/repo
import { existsSync } from "node:fs";
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks, shortBranch } from "./harness.mjs";

const [url, project] = required("node e2e/workspaces.mjs --url LOGIN_URL --project GIT_REPO", "--url", "--project");

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  // A session in the project's folder: the sidebar then has two groups.
  const home = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title: "In the folder" });
  await call("POST", "/api/runs", { session_id: home.id, message: "hello", client_request_id: `ws-${Date.now()}` });
  await waitIdle();
  await page.reload({ waitUntil: "domcontentloaded" });
  const nav = page.getByRole("navigation", { name: "Projects and sessions" });
  const head = page.locator(".main-head");

  // Two sessions, each in a new worktree, from the new-session view.
  const made = [];
  for (const text of ["/scenario approval", "/scenario approval again"]) {
    await nav.getByRole("button", { name: `New session in ${proj.name}` }).click();
    await page.getByRole("radio", { name: "In a new worktree" }).check();
    if (made.length === 0) await page.screenshot({ path: join(out, "workspaces-new-session.png") });
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
    await head.locator(".ws-chip").waitFor({ timeout: 30_000 });
    const list = await call("GET", `/api/projects/${proj.id}/workspaces`);
    const w = list.find((x) => !made.some((m) => m.id === x.id));
    if (!w) throw new Error("no new workspace after the new session");
    made.push(w);
    const chip = (await head.locator(".ws-chip").textContent()) ?? "";
    console.log(`workspaces: session "${text}" in ${w.path}, header chip "${chip.trim()}"`);
    if (!chip.includes(shortBranch(w))) problems.push(`the header chip "${chip}" does not name the branch ${w.branch}`);
    if (!existsSync(w.path)) problems.push(`the worktree ${w.path} does not exist`);
  }
  // Both runs live at once, each in its own worktree.
  let live = [];
  for (let i = 0; i < 100 && live.length < 2; i++) {
    live = (await call("GET", "/api/runs?status=active")).filter((r) => r.status === "awaiting_approval");
    if (live.length < 2) await page.waitForTimeout(100);
  }
  console.log(`workspaces: ${live.length} runs waiting at once`);
  if (live.length !== 2) problems.push(`${live.length} runs live at once, want 2`);
  // The sidebar groups the sessions: the folder and the two worktrees.
  for (const w of made) {
    const g = nav.locator(`[data-workspace-group="${w.id}"]`);
    await g.waitFor({ timeout: 5_000 });
    if (!((await g.textContent()) ?? "").includes(shortBranch(w))) problems.push(`the sidebar group of ${w.id} does not name its branch`);
  }
  await nav.locator('[data-workspace-group="checkout"]').getByText("Project folder").waitFor({ timeout: 5_000 });

  // Widths and themes, with the runs live (the status badge shows too).
  for await (const { at, width, scheme } of looks(page, [1280, 720, 420])) {
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `workspaces-${width}-${scheme}.png`) });
    const m = await page.evaluate(() => {
      const h = document.querySelector(".main-head");
      const chip = h?.querySelector(".ws-chip");
      const r = chip?.getBoundingClientRect();
      return {
        overflow: h ? h.scrollWidth - h.clientWidth : 0,
        page: document.documentElement.scrollWidth - window.innerWidth,
        chip: r ? { w: Math.round(r.width), right: r.right, full: chip.scrollWidth, client: chip.clientWidth } : null,
        vw: window.innerWidth,
      };
    });
    console.log(`workspaces ${at}: header overflow ${m.overflow} px, chip ${m.chip ? `${m.chip.w} px (${m.chip.client}/${m.chip.full})` : "none"}`);
    if (m.overflow > 1) problems.push(`${at}: the header's content is ${m.overflow} px wider than the header`);
    if (m.page > 1) problems.push(`${at}: the page is ${m.page} px wider than the window`);
    if (width >= 720 && (!m.chip || m.chip.w < 40)) problems.push(`${at}: the worktree chip is not shown (${m.chip?.w ?? 0} px)`);
    if (m.chip && m.chip.right > m.vw + 1) problems.push(`${at}: the chip reaches past the window`);
  }

  // Archive while the run is live: refused, and the sentence says why.
  const last = made[made.length - 1];
  await head.getByRole("button", { name: `Archive the worktree ${shortBranch(last)}` }).click();
  const refusal = head.getByRole("alert");
  await refusal.waitFor({ timeout: 10_000 });
  console.log(`workspaces: archive refused: "${(await refusal.textContent())?.trim()}"`);
  for (const r of live) await call("POST", `/api/runs/${r.id}/cancel`, {});
  await waitIdle();
  // Archived from the header: the folder goes, the chip says so.
  await head.getByRole("button", { name: `Archive the worktree ${shortBranch(last)}` }).click();
  await head.getByText(/Archived: restore it/).waitFor({ timeout: 30_000 });
  if (existsSync(last.path)) problems.push(`archived, yet ${last.path} is still there`);
  await page.screenshot({ path: join(out, "workspaces-archived.png") });
  // Restored from the project's menu → Recently archived worktrees.
  await nav.getByRole("button", { name: `Actions for the project ${proj.name}` }).click();
  await page.getByRole("menuitem", { name: /Recently archived worktrees/ }).click();
  const dlg = page.getByRole("dialog");
  await dlg.getByText(shortBranch(last)).waitFor({ timeout: 5_000 });
  await page.screenshot({ path: join(out, "workspaces-recently-archived.png") });
  await dlg.getByRole("button", { name: /Restore/ }).click();
  await dlg.getByText(/No archived worktrees/).waitFor({ timeout: 30_000 });
  await page.keyboard.press("Escape");
  await head.getByRole("button", { name: `Archive the worktree ${shortBranch(last)}` }).waitFor({ timeout: 10_000 });
  if (!existsSync(last.path)) problems.push(`restored, yet ${last.path} is not back`);
  const back = (await call("GET", `/api/projects/${proj.id}/workspaces`)).find((x) => x.id === last.id);
  console.log(`workspaces: ${last.id} restored, state ${back?.state}`);
  if (back?.state !== "ready") problems.push(`restored workspace is ${back?.state}, want ready`);
  await ctx.close();
} catch (e) {
  await failed("workspaces", e, problems, page);
} finally {
  await browser.close();
}
report("workspaces", problems);
