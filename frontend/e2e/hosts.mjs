// A host in the window (docs/ARCHITECTURE.md §Remote cores, "The window"),
// against the real `serve` fronting a supervisor that follows a second real
// core as the host "devbox" (scripts/e2e-hosts.sh): add a project on the
// host (its path checked there), start a session there with the demo agent,
// answer its approval from the window, see the header and the run's dot
// name the host; then the host's core stops: the session shows the copy
// kept here, read-only and said in words; it starts again: the host's own.
// At 1280 and 420 px, light and dark: screenshots e2e/out/hosts-*.png.
//
//   node e2e/hosts.mjs --url LOGIN_URL --folder /path/on/the/host --host-bin BIN --host-home DIR --pid-file FILE
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { arg, launch, out, report } from "./harness.mjs";

const url = arg("--url");
const folder = arg("--folder");
const hostBin = arg("--host-bin");
const hostHome = arg("--host-home");
const pidFile = arg("--pid-file");
if (!url || !folder || !hostBin || !hostHome || !pidFile) {
  console.error("usage: node e2e/hosts.mjs --url LOGIN_URL --folder DIR --host-bin BIN --host-home DIR --pid-file FILE");
  process.exit(2);
}

/** The host's core: a real `serve --socket-only` on its own data dir. */
let host;
function startHost() {
  host = spawn(hostBin, ["serve", "--socket-only"], { env: { ...process.env, HERMESDESK_HOME: hostHome }, stdio: "ignore" });
  writeFileSync(pidFile, String(host.pid));
}
function stopHost() {
  return new Promise((done) => {
    host.once("exit", done);
    host.kill("SIGTERM");
  });
}

const browser = await launch();
const problems = [];
const t0 = Date.now();
const ms = () => `${Date.now() - t0} ms`;
try {
  startHost();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(url, { waitUntil: "domcontentloaded" });
  const side = page.getByRole("navigation", { name: "Projects and sessions" });
  const group = side.getByRole("region", { name: "Host devbox" });
  await group.getByText("No projects on this host yet.").waitFor({ timeout: 45_000 });
  console.log(`hosts: the host devbox answers in the sidebar at ${ms()}`);

  // A project on the host: a path there, checked by the host's core.
  await side.getByRole("button", { name: "Add a project folder" }).click();
  await page.getByRole("radio", { name: "devbox" }).click();
  const path = page.getByRole("textbox", { name: "Folder path on devbox" });
  await path.fill(join(folder, "not-there"));
  await path.press("Enter");
  const refused = await page.getByRole("alert").first().textContent({ timeout: 10_000 });
  console.log(`hosts: a folder missing on the host: "${refused}"`);
  if (!/not-there/.test(refused ?? "")) problems.push(`a missing folder was refused without naming it: ${refused}`);
  await path.fill(folder);
  await path.press("Enter");
  await group.getByRole("button", { name: "parser", exact: true }).waitFor({ timeout: 10_000 });

  // A new session there, the demo agent asking for an approval.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.waitFor({ timeout: 10_000 });
  await box.fill("/scenario approval");
  await box.press("Enter");
  await page.locator(".chip-host").waitFor({ timeout: 15_000 });
  const chip = (await page.locator(".chip-host").textContent())?.trim();
  if (chip !== "on devbox") problems.push(`the header names "${chip}", not "on devbox"`);
  const allow = page.locator("button", { hasText: /^Allow/ }).first();
  await allow.waitFor({ timeout: 30_000 });
  console.log(`hosts: the host's approval in the window at ${ms()}`);
  if (!(await group.getByTitle("Running on devbox").count())) problems.push("the host's running session has no dot saying so");
  await page.screenshot({ path: join(out, "hosts-1280-approval.png") });
  await allow.click();
  await page.locator(".main-head .badge", { hasText: /Completed|Done/i }).first().waitFor({ timeout: 30_000 });
  console.log(`hosts: approved from the window, the run completed on the host at ${ms()}`);

  for (const [width, scheme] of [[1280, "light"], [1280, "dark"], [420, "light"], [420, "dark"]]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, `hosts-${width}-${scheme}.png`) });
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (over > 0) problems.push(`${width} px ${scheme}: the page scrolls sideways by ${over} px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The host's core stops: its copy here, read-only, said in words.
  await stopHost();
  const words = page.getByText(/devbox can't be reached; its runs go on there\. Showing the copy from \d\d:\d\d\./);
  await words.waitFor({ timeout: 30_000 });
  console.log(`hosts: host stopped, the copy shown at ${ms()}`);
  if (!(await page.getByRole("textbox", { name: "Message" }).isDisabled())) problems.push("the copy's message box is not read-only");
  if (!(await group.getByRole("button", { name: "parser", exact: true }).count())) problems.push("the sidebar lost the host's project while it is away");
  for (const [width, scheme] of [[1280, "light"], [420, "dark"]]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(out, `hosts-copy-${width}-${scheme}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back: the host's own session again.
  startHost();
  await words.waitFor({ state: "detached", timeout: 60_000 });
  await page.locator(".chip-host").waitFor({ timeout: 15_000 });
  console.log(`hosts: host back, its session again at ${ms()}`);
} catch (e) {
  problems.push(String(e?.stack ?? e));
} finally {
  await browser.close();
  if (host && host.exitCode === null && existsSync(pidFile)) await stopHost();
}
report("hosts", problems);
