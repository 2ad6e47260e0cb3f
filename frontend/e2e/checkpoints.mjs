// Checkpoints from the window (issue 26, docs/ARCHITECTURE.md §Checkpoints),
// against the real `serve` and a real git repository: a demo run writes
// hello.txt; "Undo this run" on its footer removes it from the disk and the
// transcript says so; Redo brings it back; edited since, Undo is refused
// naming it; "Restore files to before this message" previews the files
// (created since: kept unless ticked); "Fork from here" opens a new session
// in a new worktree holding the files of before the message. The person's
// own file is never touched. Footer, dialog and Settings → Checkpoints at 420 and 1280 px,
// light and dark; screenshots e2e/out/checkpoints-*.png.
//
//   node e2e/checkpoints.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/git/repo
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks, overflow } from "./harness.mjs";

const [url, project] = required("node e2e/checkpoints.mjs --url LOGIN_URL --project GIT_REPO", "--url", "--project");

const browser = await launch();
const problems = [];
let page;
const hello = join(project, "hello.txt");
const mine = join(project, "mine.txt");
try {
  writeFileSync(mine, "the person's\n");
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const title = "Writes hello";
  const s = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title });
  await call("POST", "/api/runs", { session_id: s.id, message: "/scenario tool\ngo", client_request_id: `cp-${Date.now()}` });
  await waitIdle();
  if (!existsSync(hello)) throw new Error("the demo run did not write hello.txt");
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title, exact: true }).click();
  const bar = page.locator(".checkpoint-bar").last();

  // Undo: the file is gone from the disk, the transcript says so.
  await bar.getByRole("button", { name: "Undo this run" }).click();
  await bar.getByText(/Undid this run's changes at/).waitFor({ timeout: 30_000 });
  console.log(`checkpoints: undo said "${(await bar.locator(".control-note").textContent())?.trim()}"`);
  if (existsSync(hello)) problems.push("after Undo, hello.txt is still on the disk");
  if (readFileSync(mine, "utf8") !== "the person's\n") problems.push("Undo changed the person's file");
  await shots("undone");

  // Redo: the file is back.
  await bar.getByRole("button", { name: "Redo" }).click();
  await bar.getByText(/Redid this run's changes at/).waitFor({ timeout: 30_000 });
  if (!existsSync(hello)) problems.push("after Redo, hello.txt is not back");
  else console.log(`checkpoints: redo brought hello.txt back (${readFileSync(hello, "utf8").length} bytes)`);
  await bar.getByRole("button", { name: "Undo this run" }).waitFor({ timeout: 5_000 });

  // Edited since by the person: Undo is refused, names the file, changes nothing.
  const wrote = readFileSync(hello, "utf8");
  writeFileSync(hello, "the person's edit\n");
  await bar.getByRole("button", { name: "Undo this run" }).click();
  const refusal = bar.getByRole("alert");
  await refusal.waitFor({ timeout: 30_000 });
  const said = ((await refusal.textContent()) ?? "").trim();
  console.log(`checkpoints: undo after an edit refused: "${said}"`);
  if (!said.includes("hello.txt")) problems.push(`the refusal does not name hello.txt: "${said}"`);
  if (readFileSync(hello, "utf8") !== "the person's edit\n") problems.push("a refused undo changed hello.txt");
  await shots("refused");
  writeFileSync(hello, wrote);

  // Restore preview: hello.txt was created since this message: listed, kept unless ticked.
  await bar.getByRole("button", { name: "Restore files to before this message" }).click();
  const dlg = page.getByRole("dialog", { name: "Restore files to before this message" });
  const created = dlg.getByRole("list", { name: "Files created since" });
  await created.waitFor({ timeout: 30_000 });
  const listed = (await created.textContent()) ?? "";
  console.log(`checkpoints: restore preview lists created since: "${listed}"`);
  if (!listed.includes("hello.txt")) problems.push(`the restore preview does not list hello.txt: "${listed}"`);
  if (listed.includes("mine.txt")) problems.push("the restore preview lists the person's file made before the message");
  await shots("restore-preview");
  await dlg.getByLabel("Also remove the files created since").check();
  await dlg.getByRole("button", { name: "Restore", exact: true }).click();
  await bar.getByText(/Restored the files to before this message at/).waitFor({ timeout: 30_000 });
  if (existsSync(hello)) problems.push("after Restore with \"also remove\", hello.txt is still there");
  if (readFileSync(mine, "utf8") !== "the person's\n") problems.push("Restore changed the person's file");
  await bar.getByRole("button", { name: "Undo the restore" }).click();
  await bar.getByText(/Undid the restore at/).waitFor({ timeout: 30_000 });
  if (!existsSync(hello)) problems.push("after Undo the restore, hello.txt is not back");
  await shots("restore-undone");
  const recs = (await call("GET", `/api/sessions/${s.id}/checkpoints`)).checkpoints;
  console.log(`checkpoints: ${recs.length} records: ${recs.map((r) => r.kind).join(", ")}`);
  // Fork from here: a new session in a new worktree whose files are the
  // checkpoint's (before the message: no hello.txt, the person's mine.txt),
  // opened in the window; the project's own folder is left as it is.
  await bar.getByRole("button", { name: "Fork from here" }).click();
  await page.getByText(`Fork of ${title}`).first().waitFor({ timeout: 30_000 });
  const forked = (await call("GET", `/api/sessions?project_id=${proj.id}`)).find((x) => x.title === `Fork of ${title}`);
  if (!forked?.workspace_id) problems.push(`the fork has no worktree: ${JSON.stringify(forked)}`);
  else {
    const ws = await call("GET", `/api/workspaces/${forked.workspace_id}`);
    const path = ws.workspace?.path ?? ws.path;
    console.log(`checkpoints: forked into ${path}`);
    if (!path || !existsSync(join(path, "readme.txt"))) problems.push(`the fork's worktree has no readme.txt: ${path}`);
    else if (existsSync(join(path, "hello.txt"))) problems.push("the fork's worktree has hello.txt, written after the message it forks from");
    else if (!existsSync(join(path, "mine.txt"))) problems.push("the fork's worktree lacks the person's untracked mine.txt of before the message");
  }
  if (!existsSync(hello)) problems.push("forking changed the project's own folder");
  await shots("forked");

  // Settings → Checkpoints: the disk they use, measured by the backend.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const used = page.getByRole("status", { name: "Disk used by checkpoints" });
  await used.getByText(/in \d+ checkpoints?/).waitFor({ timeout: 30_000 });
  console.log(`checkpoints: settings say "${(await used.textContent())?.trim()}"`);
  await used.scrollIntoViewIfNeeded();
  await shots("settings");
  await ctx.close();
} catch (e) {
  await failed("checkpoints", e, problems, page);
} finally {
  await browser.close();
}
report("checkpoints", problems);

// The footer (or the open dialog) at each width and theme: nothing wider than the window.
async function shots(name) {
  for await (const { at, width, scheme } of looks(page, [1280, 420])) {
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, `checkpoints-${name}-${width}-${scheme}.png`) });
    const over = await overflow(page);
    if (over > 1) problems.push(`${name} ${at}: the page is ${over} px wider than the window`);
  }
}
