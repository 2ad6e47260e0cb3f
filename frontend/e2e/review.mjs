// Review a worktree from the window (issue 27, docs/ARCHITECTURE.md
// §Review), against the real `serve` and a real git repository: a demo run
// in a new worktree writes hello.txt and the person edits readme.txt
// there; the chip's Review lists both with +/−; a click on a line of the
// diff opens a comment; Send gives the agent one message (the demo agent
// recalls it, with the path, line and text); Revert of readme.txt, after
// its confirm, puts the base's version back on the disk and Undo brings the
// edit back. The view at 420, 720 and 1280 px, light and dark, never wider
// than the window; side by side at 1280; screenshots e2e/out/review-*.png.
//
//   node e2e/review.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/git/repo
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks } from "./harness.mjs";

const [url, project] = required("node e2e/review.mjs --url LOGIN_URL --project GIT_REPO", "--url", "--project");

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const title = "Review me";
  const s = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title, workspace: "worktree" });
  let w;
  for (let i = 0; i < 100; i++) {
    w = (await call("GET", `/api/projects/${proj.id}/workspaces`)).find((x) => x.id === s.workspace_id);
    if (w?.state === "ready") break;
    await page.waitForTimeout(100);
  }
  if (w?.state !== "ready") throw new Error(`the worktree is ${w?.state}, not ready`);
  await call("POST", "/api/runs", { session_id: s.id, message: "/scenario tool\ngo", client_request_id: `rv-${Date.now()}` });
  await waitIdle();
  const readme = join(w.path, "readme.txt");
  const base = readFileSync(readme, "utf8");
  writeFileSync(readme, base + "an edit to review\n");

  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title, exact: true }).click();
  const head = page.locator(".main-head");
  await head.getByRole("button", { name: /^Review the worktree/ }).click();
  const view = page.getByRole("dialog", { name: /^Review of/ });
  const files = view.getByRole("list", { name: "Changed files" });
  await files.getByRole("button", { name: "hello.txt" }).waitFor({ timeout: 10_000 });
  await files.getByRole("button", { name: "readme.txt" }).waitFor({ timeout: 5_000 });
  console.log(`review: files listed: ${(await files.textContent())?.replace(/\s+/g, " ").trim()}`);

  // A comment on the added line of readme.txt, then Send.
  await files.getByRole("button", { name: "readme.txt" }).click();
  const line = base.split("\n").length; // the edit's line number in the new file
  await view.getByRole("button", { name: `Comment on line ${line}` }).click();
  await view.getByRole("textbox", { name: "Comment" }).fill("Say why this line is here");
  await view.getByRole("button", { name: "Add comment" }).click();
  await view.getByText("Say why this line is here").waitFor({ timeout: 10_000 });
  await shots("comment");
  await view.getByRole("button", { name: "Send 1 comment" }).click();
  await view.getByText(/Sent 1 comment to the agent/).waitFor({ timeout: 10_000 });
  await waitIdle();
  await call("POST", "/api/runs", { session_id: s.id, message: "/scenario recall", client_request_id: `rv-recall-${Date.now()}` });
  await waitIdle();
  const msgs = (await call("GET", `/api/sessions/${s.id}`)).messages ?? [];
  const recalled = msgs[msgs.length - 1]?.content ?? "";
  for (const want of [`readme.txt:${line}`, "Say why this line is here"])
    if (!recalled.includes(want)) problems.push(`the agent was not given "${want}"; it recalls: ${recalled.slice(0, 400)}`);
  console.log(`review: the agent recalls the review message (${recalled.includes(`readme.txt:${line}`) ? "with" : "WITHOUT"} path:line)`);

  // Viewed, then Revert with its confirm, then Undo.
  await view.getByLabel("Viewed hello.txt").check();
  await view.getByLabel("Viewed hello.txt").isChecked();
  await view.getByRole("button", { name: "Revert" }).first().click();
  await view.getByRole("alertdialog").getByRole("button", { name: "Revert" }).click();
  await view.getByText(/Reverted readme.txt/).waitFor({ timeout: 10_000 });
  if (readFileSync(readme, "utf8") !== base) problems.push("after Revert, readme.txt is not the base's version");
  else console.log("review: revert put the base's readme.txt back on the disk");
  await view.getByRole("button", { name: "Undo" }).click();
  await view.getByText(/The revert was undone/).waitFor({ timeout: 10_000 });
  if (readFileSync(readme, "utf8") !== base + "an edit to review\n") problems.push("after Undo, the edit to readme.txt is not back");
  else console.log("review: undo brought the edit back");
  await view.getByRole("button", { name: "readme.txt" }).click();

  for (const width of [1280, 720, 420]) {
    for (const scheme of ["light", "dark"]) {
      const at = `${width} px ${scheme}`;
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await view.locator(".rv-lines").waitFor({ timeout: 10_000 });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `review-${width}-${scheme}.png`) });
      const m = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        view: (() => {
          const v = document.querySelector(".rv-overlay");
          return v ? v.scrollWidth - v.clientWidth : 0;
        })(),
        split: !!document.querySelector(".rv-diff-split"),
        // Narrow, the file list above the diff is as tall as its files.
        listSlack: (() => {
          const l = document.querySelector(".rv-files");
          const last = l?.lastElementChild;
          return l && last ? Math.round(l.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom - parseFloat(getComputedStyle(l).paddingBottom) - 1) : 0;
        })(),
      }));
      if (width <= 720 && m.listSlack > 4) problems.push(`${at}: the file list leaves ${m.listSlack} px empty above the diff`);
      console.log(`review ${at}: page overflow ${m.page} px, view overflow ${m.view} px, ${m.split ? "side by side" : "unified"}`);
      if (m.page > 1 || m.view > 1) problems.push(`${at}: wider than the window (${m.page}/${m.view} px)`);
      if ((width >= 1100) !== m.split) problems.push(`${at}: ${m.split ? "side by side" : "unified"}, want ${width >= 1100 ? "side by side" : "unified"}`);
    }
  }
  await page.keyboard.press("Escape");
  await view.waitFor({ state: "detached", timeout: 5_000 });
  // The transcript shows the review as a card of its comment, and the
  // header's chip keeps Review within the window.
  const card = page.getByRole("region", { name: "Review: 1 comment" });
  // The transcript is a virtual list that opens at its tail: scroll up to the card.
  await page.locator(".main-head").waitFor();
  const box = await page.locator("main").boundingBox();
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 30 && (await card.count()) === 0; i++) {
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(100);
  }
  await card.waitFor({ timeout: 10_000 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "review-card.png") });
  if (!((await card.textContent()) ?? "").includes(`readme.txt:${line}`)) problems.push("the review card does not name readme.txt:" + line);
  for (const width of [420, 720]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, `review-header-${width}.png`) });
    const m = await page.evaluate(() => {
      const h = document.querySelector(".main-head");
      return { overflow: h ? h.scrollWidth - h.clientWidth : 0, page: document.documentElement.scrollWidth - window.innerWidth };
    });
    console.log(`review header ${width} px: overflow ${m.overflow} px`);
    if (m.overflow > 1 || m.page > 1) problems.push(`${width} px: the header with Review is wider than the window (${m.overflow}/${m.page} px)`);
  }
  await ctx.close();

  async function shots(name) {
    await page.screenshot({ path: join(out, `review-${name}.png`) });
  }
} catch (e) {
  await failed("review", e, problems, page);
} finally {
  await browser.close();
}
report("review", problems);
