// End-to-end for the workbench features against a running `hermesdesk
// serve`: in a git project, the demo's tool scenario (picked from the slash
// menu) shows its diff on the tool card, in Changes and at the run's end; a
// `command` agent appending to a tracked file shows the right diff from the
// workspace snapshot; the session exports as Markdown and as a bundle.
//   node e2e/workbench.mjs --url LOGIN_URL --project GIT_DIR --bundle OUT_FILE
// With --find WORD instead, it checks that search finds WORD in an imported
// session (after `hermesdesk import` into another data dir).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { out, arg, launch, report, pageApi, failed } from "./harness.mjs";

const url = arg("--url");
const project = arg("--project");
const bundlePath = arg("--bundle");
const find = arg("--find");
if (!url || (!find && (!project || !bundlePath))) {
  console.error("usage: node e2e/workbench.mjs --url LOGIN_URL (--project GIT_DIR --bundle OUT | --find WORD)");
  process.exit(2);
}

const browser = await launch();
const problems = [];
let page;
const step = (s) => console.log(`workbench: ${s}`);
const check = (ok, what) => ok || problems.push(what);

const api = (method, path, body) => pageApi(page).call(method, path, body);

async function idle() {
  await page.waitForTimeout(300);
  await pageApi(page).waitIdle();
}

async function openSession(title) {
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title, exact: true }).click();
  await page.getByLabel("Message").waitFor({ timeout: 10_000 });
}

async function inspectorChanges() {
  const insp = page.getByRole("complementary", { name: "Run inspector" });
  if (!(await insp.isVisible())) await page.getByRole("button", { name: "Inspector" }).click();
  await insp.waitFor({ timeout: 5_000 });
  return insp;
}

try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await ctx.newPage();
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  // Not "networkidle": the watch bus keeps one stream open for good.
  await page.goto(url, { waitUntil: "domcontentloaded" });

  if (find) {
    step(`search finds "${find}" in the imported session`);
    // The app must be up (its shortcuts listening) before Ctrl+K means anything.
    await page.getByRole("navigation", { name: "Projects and sessions" }).waitFor({ timeout: 30_000 });
    const quick = page.getByRole("dialog", { name: "Switch to a session" });
    for (let i = 0; i < 5 && !(await quick.isVisible()); i++) {
      await page.keyboard.press("Control+k");
      await quick.waitFor({ timeout: 2_000 }).catch(() => {});
    }
    await quick.getByLabel("Search sessions").fill(find);
    const hit = quick.getByRole("option").filter({ has: page.locator("mark", { hasText: new RegExp(`^${find}$`, "i") }) }).first();
    await hit.waitFor({ timeout: 10_000 });
    await hit.click();
    await page.getByLabel("Message").waitFor({ timeout: 10_000 });
    check(await page.getByLabel("Message").isDisabled(), "the imported session is not read-only");
    await page.screenshot({ path: join(out, "workbench-imported.png") });
  } else {
    const prj = await api("POST", "/api/projects", { name: "gitproj", workspace: project });
    const diffSession = await api("POST", "/api/sessions", { project_id: prj.id, agent: "demo", title: "Diff demo" });
    await page.reload({ waitUntil: "domcontentloaded" });

    step("the slash menu picks the demo's scenario command");
    await openSession("Diff demo");
    const box = page.getByLabel("Message");
    await box.click();
    await page.keyboard.type("/");
    const menu = page.getByRole("listbox", { name: "Commands" });
    await menu.waitFor({ timeout: 5_000 });
    await page.keyboard.type("sce");
    await page.screenshot({ path: join(out, "workbench-slash.png") });
    await page.keyboard.press("Enter");
    check((await box.inputValue()) === "/scenario ", `the menu inserted ${JSON.stringify(await box.inputValue())}`);
    await page.keyboard.type("tool");
    await page.keyboard.press("Enter");
    await idle();

    step("the tool card, Changes and the run's end show the diff");
    const card = page.locator(".tool-card", { hasText: "hello.txt" }).first();
    await card.locator(".tool-line").click();
    const cardDiff = card.getByLabel("Diff of hello.txt");
    await cardDiff.waitFor({ timeout: 10_000 });
    check((await cardDiff.textContent()).includes("+hello from the demo agent"), "the tool card's diff lacks the written line");
    await page.locator(".done-line", { hasText: "1 file changed, +1 −0" }).last().waitFor({ timeout: 10_000 });
    let insp = await inspectorChanges();
    const changesDiff = insp.getByLabel("Diff of hello.txt");
    await changesDiff.waitFor({ timeout: 5_000 });
    check((await changesDiff.textContent()).includes("+hello from the demo agent"), "Changes lacks the written line");
    await page.screenshot({ path: join(out, "workbench-diff.png") });

    step("the model picker stores the choice on the session for its next run");
    await page.getByLabel("Model").selectOption("demo-large");
    await page.waitForFunction(
      async (id) => {
        const token = sessionStorage.getItem("hermesdesk.token") ?? "";
        const r = await fetch(`/api/sessions/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        const v = await r.json();
        return (v.session ?? v).model === "demo-large";
      },
      diffSession.id,
      { timeout: 10_000, polling: 250 },
    );
    await page.getByLabel("Message").fill("/scenario models");
    await page.keyboard.press("Enter");
    await idle();
    await page.locator(".transcript").getByText("I am using the model demo-large.", { exact: true }).waitFor({ timeout: 10_000 });

    step("a dropped file and a picked image reach the demo agent, which says what it got");
    const composerBox = page.locator(".composer-box");
    const dt = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File(["hello, agent"], "dropped.txt", { type: "text/plain" }));
      return d;
    });
    await composerBox.dispatchEvent("dragover", { dataTransfer: dt });
    await composerBox.dispatchEvent("drop", { dataTransfer: dt });
    await page.getByTestId("attach-input").setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: Buffer.from("89504e470d0a1a0a", "hex") });
    const chips = page.getByRole("list", { name: "Attachments" });
    await chips.getByText("shot.png").waitFor({ timeout: 10_000 });
    await page.getByLabel("Remove dropped.txt").waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(out, "workbench-attachments.png") });
    step("a file over the limit is refused in plain words and changes nothing");
    await page.getByTestId("attach-input").setInputFiles({ name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(21 << 20) });
    const refusal = await page.locator(".attach-note").textContent({ timeout: 5_000 });
    check(refusal.includes("huge.bin is 21.0 MiB; an attachment can be at most 20 MiB"), `the refusal said ${JSON.stringify(refusal)}`);
    check((await chips.getByRole("listitem").count()) === 2, "the refused file became a chip");
    await page.getByLabel("Message").fill("what did you get?");
    await page.getByRole("button", { name: "Send" }).click();
    await idle();
    await page.locator(".transcript").getByText("Received 2 attachments: dropped.txt (text/plain, 12 B), shot.png (image/png, 8 B)").waitFor({ timeout: 15_000 });
    const sent = page.locator(".msg-user").filter({ hasText: "what did you get?" }).getByRole("list", { name: "Attached files" });
    check((await sent.textContent({ timeout: 5_000 })) === "dropped.txtshot.png", "the sent message does not show its attachments");
    check((await chips.count()) === 0, "the chips stayed after sending");

    step("a command agent appending to a tracked file");
    await api("PUT", "/api/settings", { "agents.command": { command: ["sh", "-c", "echo appended-by-command >> notes.txt"] } });
    await api("POST", "/api/sessions", { project_id: prj.id, agent: "command", title: "Command diff" });
    await page.reload({ waitUntil: "domcontentloaded" });
    await openSession("Command diff");
    await page.getByLabel("Message").fill("append please");
    await page.keyboard.press("Enter");
    await idle();
    await page.locator(".done-line", { hasText: "1 file changed, +1 −0" }).last().waitFor({ timeout: 15_000 });
    insp = await inspectorChanges();
    const notes = insp.getByLabel("Diff of notes.txt");
    await notes.waitFor({ timeout: 5_000 });
    const text = await notes.textContent();
    check(text.includes("+appended-by-command") && text.includes(" first line") && !text.includes("-first line"), `the notes.txt diff is wrong: ${text}`);
    await page.screenshot({ path: join(out, "workbench-command.png") });

    step("export as Markdown and as a bundle");
    const exportAs = async (name) => {
      await page.getByRole("button", { name: "Export" }).click();
      const [dl] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name }).click()]);
      return dl;
    };
    const md = await exportAs("Session as Markdown");
    const mdPath = join(out, "workbench-export.md");
    await md.saveAs(mdPath);
    const mdText = readFileSync(mdPath, "utf8");
    check(md.suggestedFilename() === "Command-diff.md", `markdown file name ${md.suggestedFilename()}`);
    check(mdText.includes("# Command diff") && mdText.includes("append please") && mdText.includes("+appended-by-command"), "the Markdown export lacks the message or the diff");
    const bundle = await exportAs("Session as bundle (for import)");
    await bundle.saveAs(bundlePath);
    check(readFileSync(bundlePath, "utf8").startsWith('{"format":"hermesdesk.session-bundle","version":1'), "the bundle has no manifest line");
  }
  await ctx.close();
} catch (e) {
  await failed("workbench", e, problems, page);
} finally {
  await browser.close();
}
report("workbench", problems);
