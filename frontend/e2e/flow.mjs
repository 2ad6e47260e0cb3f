// End-to-end flow against a running `hermesdesk serve` (browser transport,
// real service, the fake "demo" agent): add a project, start the demo, watch
// it stream to the end, answer an approval by keyboard, render the hostile
// scenario, rename the session (F2), archive it from the sidebar menu and
// set an agent's options in Settings, then find a word of the first answer
// with Quick Switch and land on it.
// Screenshots go to e2e/out/flow-*.png.
//
//   hermesdesk serve --addr 127.0.0.1:8791     # prints the login link
//   node e2e/flow.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/an/empty/folder
import { join } from "node:path";
import { out, launch, report, pageApi, failed, required } from "./harness.mjs";

const [url, project] = required("node e2e/flow.mjs --url LOGIN_URL --project DIR", "--url", "--project");

// The transcript is virtualized, so counting rows says little: ask the API
// (with the tab's token) until no run is active, then check the header.
async function idle() {
  await page.waitForTimeout(300);
  await pageApi(page).waitIdle();
  await page.locator(".main-head .badge", { hasText: "Completed" }).waitFor({ timeout: 10_000 });
}

// GET an API path with the tab's token (what the server now holds).
const api = (path) => pageApi(page).call("GET", path);

async function sessionsNamed(title) {
  const [proj] = await api("/api/projects");
  return (await api(`/api/sessions?project_id=${encodeURIComponent(proj.id)}`)).filter((s) => s.title === title);
}

const browser = await launch();
const problems = [];
let page;
const step = (s) => console.log(`flow: ${s}`);
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await ctx.newPage();
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  // Not "networkidle": the watch bus keeps one stream open for good.
  await page.goto(url, { waitUntil: "domcontentloaded" });
  if (new URL(page.url()).searchParams.has("token")) problems.push("token left in the address bar");

  step("add project");
  await page.getByRole("button", { name: "Add a project folder" }).click();
  await page.getByLabel("Folder path").fill(project);
  await page.getByRole("button", { name: "Add folder" }).click();

  step("start the demo agent");
  await page.getByRole("button", { name: /Try the demo agent/ }).click();
  await page.locator(".done-line").first().waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(out, "flow-demo.png") });

  step("approval by keyboard");
  await page.getByLabel("Message").fill("/scenario approval");
  await page.keyboard.press("Enter");
  await page.locator(".approval-card.pending").waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(out, "flow-approval.png") });
  await page.locator("body").click({ position: { x: 5, y: 790 } }); // focus off the composer
  await page.keyboard.press("1");
  await page.locator(".approval-result").waitFor({ timeout: 15_000 });
  await idle();

  step("hostile scenario");
  await page.getByLabel("Message").fill("/scenario hostile");
  await page.keyboard.press("Enter");
  await idle();
  await page.screenshot({ path: join(out, "flow-hostile.png") });
  // The scenario comes from the test kit's fake agent (scripts/test-e2e.sh
  // points the demo agent at it): make sure it was played, not refused.
  if (!(await page.getByText("Hostile content test").count())) problems.push("the hostile scenario was not played");
  const bad = await page.evaluate(() => document.querySelectorAll(".md script, .md img, .md iframe, .md svg, .md [onerror], .md [onclick], .md a[href^='javascript']").length);
  if (bad) problems.push(`${bad} live hostile elements in the transcript`);
  const dialogs = [];
  page.on("dialog", (d) => (dialogs.push(d.message()), d.dismiss()));
  await page.waitForTimeout(500);
  if (dialogs.length) problems.push(`alert() ran: ${dialogs.join(", ")}`);

  step("rename with F2");
  const nav = page.getByRole("navigation", { name: "Projects and sessions" });
  await page.locator("body").click({ position: { x: 5, y: 790 } });
  await page.keyboard.press("F2");
  const titleInput = page.getByRole("textbox", { name: "Session title" });
  await titleInput.waitFor({ timeout: 5_000 });
  await titleInput.fill("Renamed by e2e");
  await page.keyboard.press("Enter");
  await nav.getByRole("button", { name: "Renamed by e2e", exact: true }).waitFor({ timeout: 5_000 });
  await page.getByRole("button", { name: "Renamed by e2e, rename (F2)" }).waitFor({ timeout: 5_000 });
  if ((await sessionsNamed("Renamed by e2e")).length !== 1) problems.push("the rename did not reach the server");

  step("archive from the sidebar menu");
  await nav.getByRole("button", { name: "Actions for Renamed by e2e" }).click();
  await page.screenshot({ path: join(out, "flow-menu.png") });
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await nav.getByRole("button", { name: "Renamed by e2e", exact: true }).waitFor({ state: "detached", timeout: 5_000 });
  await nav.getByRole("button", { name: /Show archived \(1\)/ }).click();
  await nav.getByRole("button", { name: "Renamed by e2e", exact: true }).waitFor({ timeout: 5_000 });
  await page.screenshot({ path: join(out, "flow-archived.png") });
  const [archived] = await sessionsNamed("Renamed by e2e");
  if (!archived?.archived) problems.push("the archive did not reach the server");

  step("agent options in Settings");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dlg = page.getByRole("dialog", { name: "Settings" });
  await dlg.getByRole("button", { name: /Demo agent/ }).click();
  const form = dlg.getByRole("form", { name: /Demo agent.*settings/ });
  await form.getByLabel("Options").fill("pace = fast");
  await form.getByRole("button", { name: /^Save / }).click();
  await form.getByText(/^Saved/).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(out, "flow-settings.png") });
  const stored = (await api("/api/settings"))["agents.demo"];
  if (stored?.options?.pace !== "fast") problems.push(`the agent's options did not reach the server: ${JSON.stringify(stored)}`);

  step("jump to a search hit");
  await page.keyboard.press("Escape");
  await dlg.waitFor({ state: "detached", timeout: 5_000 });
  await page.keyboard.press("Control+k");
  const quick = page.getByRole("dialog", { name: "Switch to a session" });
  await quick.getByLabel("Search sessions").fill("formatting"); // from the demo's first answer
  const hit = quick.getByRole("option").filter({ has: page.locator("mark", { hasText: /^formatting$/i }) }).first();
  await hit.waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(out, "flow-search.png") });
  await hit.click();
  const target = page.locator(".transcript .row-target");
  await target.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300); // let the scroll settle, mid-pulse
  await page.screenshot({ path: join(out, "flow-jump.png") });
  const got = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const list = el.closest(".transcript-list").getBoundingClientRect();
    return { text: el.textContent ?? "", inView: r.top >= list.top - 1 && r.top < list.bottom && r.bottom > list.top, focused: document.activeElement === el };
  });
  if (!got.text.includes("formatting")) problems.push(`the highlighted block is not the match: ${got.text.slice(0, 80)}`);
  if (!got.inView) problems.push("the matched block is not in view");
  if (!got.focused) problems.push("the matched block did not get focus");
  // Sending while scrolled up brings the view down to the message sent.
  const latest = page.getByRole("button", { name: "Jump to latest" });
  await page.getByLabel("Message").fill("thanks, one more thing");
  await page.keyboard.press("Enter");
  const sent = page.locator(".msg-user .bubble", { hasText: "thanks, one more thing" });
  await sent.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  const shown = await sent.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const list = el.closest(".transcript-list").getBoundingClientRect();
    return r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
  });
  if (!shown) problems.push("the message sent while scrolled up is off-screen");
  if (await latest.isVisible()) problems.push("Jump to latest still shown after sending");
  await idle();

  step("a new tab stays logged in");
  const tab = await ctx.newPage();
  await tab.goto(new URL("/", url).href, { waitUntil: "domcontentloaded" });
  await tab.waitForTimeout(500);
  if (await tab.getByText("Sign-in link needed").count()) problems.push("a new tab needs the login link again");
  if (!(await tab.getByRole("navigation", { name: "Projects and sessions" }).getByText("Renamed by e2e").count())) {
    await tab.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: /project/ }).first().waitFor({ timeout: 5_000 });
  }
  await tab.close();

  step("narrow window");
  await page.setViewportSize({ width: 420, height: 800 });
  await page.waitForTimeout(300);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (wide > 0) problems.push(`420 px: the page is ${wide} px wider than the window`);
  if (await nav.count()) problems.push("420 px: the sidebar stays docked");
  await page.getByRole("button", { name: "Show sidebar" }).click();
  await nav.waitFor({ timeout: 5_000 });
  await page.screenshot({ path: join(out, "flow-narrow-sidebar.png") });
  await nav.getByRole("button", { name: /New session in/ }).first().click();
  await nav.waitFor({ state: "detached", timeout: 5_000 });
  await page.screenshot({ path: join(out, "flow-narrow-new.png") });
  const overlap = await page.evaluate(() => {
    const h = document.querySelector(".main-head h1")?.getBoundingClientRect();
    const a = document.querySelector(".agent-pick")?.getBoundingClientRect();
    return h && a ? h.right > a.left + 1 && h.bottom > a.top : false;
  });
  if (overlap) problems.push("420 px: the header title overlaps the agent picker");
  await page.setViewportSize({ width: 1280, height: 800 });
  await ctx.close();
} catch (e) {
  await failed("flow", e, problems, page);
} finally {
  await browser.close();
}
report("flow", problems);
