// A page open on `hermesdesk serve` in front of the desktop app's core
// outlives the core (docs/ARCHITECTURE.md §Processes): the core is killed
// while a run streams into the open session; serve takes over, the page
// reconnects on its own (no reload, no "Backend not connected" page), the
// run's answer goes on to its end with every word once, and a run started
// afterwards shows in the page.
//
//   node e2e/takeover.mjs --url LOGIN_URL --project DIR --core-pid PID
import { arg, launch, report, apiFrom, required } from "./harness.mjs";

const usage = "node e2e/takeover.mjs --url LOGIN_URL --project DIR --core-pid PID";
const [url, project] = required(usage, "--url", "--project", "--core-pid");
const corePid = Number(arg("--core-pid"));
const { call } = apiFrom(url);
const step = (s) => console.log(`takeover: ${s}`);
const problems = [];

const transcript = (page) => page.locator(".transcript").first();
async function waitText(page, text, timeout) {
  await page.waitForFunction((t) => document.querySelector(".transcript")?.textContent?.includes(t), text, { timeout });
}

const browser = await launch();
try {
  const p = await call("POST", "/api/projects", { workspace: project, name: "takeover" });
  const ses = await call("POST", "/api/sessions", { project_id: p.id, agent: "demo", title: "Outlives the app" });
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: "Outlives the app", exact: true }).click();
  await page.locator(".transcript, .session-empty, .main-head").first().waitFor({ timeout: 10_000 });

  step("a slow answer streams into the open session; the core is killed");
  await call("POST", "/api/runs", { session_id: ses.id, message: "/scenario slow", client_request_id: `takeover-${Date.now()}` });
  await waitText(page, "word3 ", 30_000);
  // The page keeps its view through the take-over (a quiet "Reconnecting"
  // line at most), never the "Backend not connected" page.
  await page.evaluate(() => {
    const check = () => {
      if (document.body.textContent?.includes("Backend not connected")) window.__sawOffline = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const t0 = Date.now();
  process.kill(corePid, "SIGKILL");
  // The answer goes on in the page: words the core never streamed (the
  // agent writes one every 300 ms).
  const seen = ((await transcript(page).textContent()) ?? "").match(/word(\d+) /g) ?? [];
  const next = `word${seen.length + 2} `;
  await waitText(page, next, 30_000);
  console.log(`takeover: the page showed "${next.trim()}" ${Date.now() - t0} ms after the core was killed (at "word${seen.length}")`);
  await waitText(page, "Finished the slow answer.", 60_000);
  const text = (await transcript(page).textContent()) ?? "";
  const words = Array.from({ length: 100 }, (_, i) => `word${i + 1}`).join(" ");
  if (!text.replace(/\s+/g, " ").includes(words)) problems.push("the answer is not every word once, in order");

  step("a run started after the take-over shows in the page");
  const msg = `after the take-over ${Date.now()}`;
  await call("POST", "/api/runs", { session_id: ses.id, message: msg, client_request_id: `takeover-${Date.now()}` });
  await waitText(page, msg, 20_000);
  if (await page.evaluate(() => window.__sawOffline === true)) problems.push('the page said "Backend not connected" during the take-over');
  if (loads !== 1) problems.push(`the page was reloaded (${loads} loads)`);
  await ctx.close();
} catch (e) {
  problems.push(String(e));
} finally {
  await browser.close();
}
report("takeover", problems);
