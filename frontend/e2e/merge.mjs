// Merge a workspace back from the window (issue 27, docs/ARCHITECTURE.md
// §Merge), against the real `serve` and a real git repository: a demo run
// in a new worktree writes hello.txt; the header chip's merge button opens
// the Merge dialog, whose preview is clean with the drafted message; Merge
// squashes it onto main — `git log` of the repository on disk has the
// squash commit and the checkout has the file; Create pull request says
// the sentence when gh is missing; Archive puts the workspace away. The
// dialog at 420, 720 and 1280 px, light and dark, never wider than the
// window; screenshots e2e/out/merge-*.png.
//
//   node e2e/merge.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/git/repo
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { out, arg, launch, report, pageApi } from "./harness.mjs";

const url = arg("--url");
const project = arg("--project");
if (!url || !project) {
  console.error("usage: node e2e/merge.mjs --url LOGIN_URL --project GIT_REPO");
  process.exit(2);
}

const git = (...args) => execFileSync("git", ["-C", project, ...args], { encoding: "utf8" }).trim();
const hasGh = (() => {
  try {
    execFileSync("gh", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => sessionStorage.getItem("hermesdesk.token") !== null, null, { timeout: 10_000 });
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const title = "Say hello";
  const s = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title, workspace: "worktree", base: "main" });
  await call("POST", "/api/runs", { session_id: s.id, message: "/scenario tool\nwrite hello", client_request_id: `merge-${Date.now()}` });
  await waitIdle();
  const w = (await call("GET", `/api/projects/${proj.id}/workspaces`)).find((x) => x.id === s.workspace_id);
  if (!w || !existsSync(join(w.path, "hello.txt"))) throw new Error("the demo run did not write hello.txt in its worktree");
  const before = git("rev-parse", "main");
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title, exact: true }).click();
  const short = w.branch.replace(/^hermesdesk\//, "");
  const head = page.locator(".main-head");
  await head.getByRole("button", { name: `Merge the worktree ${short}` }).click();
  const dlg = page.getByRole("dialog");
  await dlg.getByText(/^Clean: merging into main changes 1 file/).waitFor({ timeout: 30_000 });
  const drafted = await dlg.getByRole("textbox").inputValue();
  console.log(`merge: preview clean, drafted message ${JSON.stringify(drafted)}`);
  if (!drafted.startsWith(title)) problems.push(`the drafted message ${JSON.stringify(drafted)} does not start with the session title`);

  for (const width of [1280, 720, 420]) {
    for (const scheme of ["light", "dark"]) {
      const at = `${width} px ${scheme}`;
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `merge-${width}-${scheme}.png`) });
      const m = await page.evaluate(() => {
        const d = document.querySelector(".dialog");
        const r = d?.getBoundingClientRect();
        return { page: document.documentElement.scrollWidth - window.innerWidth, left: r?.left ?? 0, right: r?.right ?? 0, inner: d ? d.scrollWidth - d.clientWidth : 0, vw: window.innerWidth };
      });
      console.log(`merge ${at}: dialog ${Math.round(m.left)}–${Math.round(m.right)} px of ${m.vw}, inner overflow ${m.inner} px`);
      if (m.page > 1) problems.push(`${at}: the page is ${m.page} px wider than the window`);
      if (m.left < -1 || m.right > m.vw + 1) problems.push(`${at}: the dialog reaches past the window`);
      if (m.inner > 1) problems.push(`${at}: the dialog's content is ${m.inner} px wider than the dialog`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });

  if (!hasGh) {
    await dlg.getByRole("button", { name: "Create pull request" }).click();
    const alert = dlg.getByRole("alert");
    await alert.waitFor({ timeout: 10_000 });
    const said = (await alert.textContent())?.trim() ?? "";
    console.log(`merge: pull request without gh: "${said}"`);
    if (!said.includes("GitHub CLI (gh) is not installed")) problems.push(`without gh the window said "${said}"`);
  }

  await dlg.getByRole("textbox").fill("Say hello (squashed from the window)");
  await dlg.getByRole("button", { name: "Merge", exact: true }).click();
  await dlg.getByText(/Archive this workspace\?/).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(out, "merge-done.png") });
  const log = git("log", "--format=%s", "main");
  console.log(`merge: main's log now:\n${log}`);
  if (git("log", "-1", "--format=%s", "main") !== "Say hello (squashed from the window)") problems.push("main's last commit is not the squash commit");
  if (git("rev-parse", "main^") !== before) problems.push("the squash commit is not one commit on the old main");
  if (!existsSync(join(project, "hello.txt")) || readFileSync(join(project, "hello.txt"), "utf8") !== readFileSync(join(w.path, "hello.txt"), "utf8")) problems.push("the checkout does not hold hello.txt after the merge");
  const backups = git("for-each-ref", "--format=%(refname) %(objectname)", `refs/hermesdesk/backup/${w.id}`);
  console.log(`merge: backup ${backups}`);
  if (!backups.endsWith(before)) problems.push("no backup ref at main's old commit");

  await dlg.getByRole("button", { name: "Archive", exact: true }).click();
  await head.getByText(/Archived: restore it/).waitFor({ timeout: 30_000 });
  if (existsSync(w.path)) problems.push(`archived, yet ${w.path} is still there`);
  await ctx.close();
} catch (e) {
  problems.push(String(e));
  await page?.screenshot({ path: join(out, "merge-failure.png") }).catch(() => {});
} finally {
  await browser.close();
}
report("merge", problems);
