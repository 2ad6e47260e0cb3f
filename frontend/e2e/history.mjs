// The history flow (issue 28, docs/ARCHITECTURE.md §History), on a fresh
// data dir prepared by scripts/e2e-history.sh: the first-start offer says
// what the agents kept → Import (mirror on) → it never comes back →
// Settings → History lists the sources → Ctrl+K finds a marker from an
// imported tool call, its result carrying the source badge → the Qwen Code
// chat is continued and its next message runs in the fake agent added as
// qwen, which goes on in its own session. Light and dark, 420 and 1280 px;
// screenshots in e2e/out/history-*.png.
//
//   node e2e/history.mjs --url LOGIN_URL --agent FAKEAGENT --state STATE_DIR --native FAKE_SESSION_ID
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks } from "./harness.mjs";

const [url, agent, state, native] = required("node e2e/history.mjs --url LOGIN_URL --agent FAKEAGENT --state STATE_DIR --native FAKE_SESSION_ID", "--url", "--agent", "--state", "--native");

const browser = await launch();
const problems = [];
let page;

/** At 420 px the sidebar is an overlay: close it to see the page. */
async function closeOverlay() {
  if ((await page.locator(".sidebar-backdrop").count()) > 0) await page.locator(".sidebar-backdrop").click();
}

/** Screenshots of the page in every look; check(at) after each for what must hold. */
async function inEveryLook(name, check) {
  for await (const look of looks(page, [1280, 420])) {
    const { width, scheme } = look;
    const at = `${name} at ${look.at}`;
    if (width < 700) await closeOverlay();
    // The layout settles on the new width (the sidebar's overlay goes); a page that stays wider fails below.
    await page.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1, null, { timeout: 2000 }).catch(() => {});
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 1) problems.push(`${at}: the page scrolls sideways by ${overflow} px`);
    if (check) await check(at);
    await page.screenshot({ path: join(out, `history-${name}-${width}-${scheme}.png`) });
  }
}

/** The part of the element that shows outside the viewport, in px (0: all of it shows). */
async function clipped(locator) {
  const box = await locator.boundingBox();
  const vw = page.viewportSize().width;
  return box ? Math.max(0, Math.round(box.x + box.width - vw), Math.round(-box.x)) : -1;
}

try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);

  // 1. The offer, in words, without blocking the window.
  const offer = page.getByRole("region", { name: "Conversations from before" });
  await offer.waitFor({ timeout: 15_000 });
  const said = (await offer.textContent()) ?? "";
  console.log(`history: the offer says "${said.slice(0, 120)}…"`);
  for (const w of ["1 Claude Code session", "1 Codex session", "1 Qwen Code session", "import them?"]) {
    if (!said.includes(w)) problems.push(`the offer does not say "${w}": ${said}`);
  }
  if ((await page.locator(".dialog, [role=dialog]").count()) > 0) problems.push("the offer came with a dialog: it must not block the window");
  await inEveryLook("offer", async (at) => {
    for (const b of ["Import", "Not now", "Choose in Settings"]) {
      const c = await clipped(offer.getByRole("button", { name: b, exact: true }));
      if (c !== 0) problems.push(`${at}: "${b}" is not wholly in view (${c} px out)`);
    }
  });

  // 2. Import all, the mirror on.
  await offer.getByRole("checkbox", { name: /Keep mirroring/ }).check();
  await offer.getByRole("button", { name: "Import", exact: true }).click();
  const done = page.getByRole("status").filter({ hasText: "imported into the projects of their folders" });
  await done.waitFor({ timeout: 30_000 });
  console.log(`history: ${await done.textContent()}`);
  const settings = await call("GET", "/api/settings");
  if (settings["history.offer_answered"] !== "imported") problems.push(`the answer was not kept: ${JSON.stringify(settings["history.offer_answered"])}`);
  const offered = await call("GET", "/api/history/offer");
  if (offered.length) problems.push(`after Import the offer still counts: ${JSON.stringify(offered)}`);

  // It never comes back: the next start reads the answer and asks no more.
  const asked = [];
  page.on("request", (r) => r.url().includes("/api/history/offer") && asked.push(r.url()));
  const answerRead = page.waitForResponse((r) => r.url().endsWith("/api/settings") && r.request().method() === "GET");
  await page.reload({ waitUntil: "domcontentloaded" });
  await answerRead;
  await page.locator(".session-row .chip-imported").first().waitFor({ timeout: 10_000 });
  if (asked.length || (await offer.count())) problems.push(`the offer came back after it was answered (${asked.length} requests)`);

  // 3. Settings → History lists each source with its count and the mirror on.
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  for (const id of ["claude", "codex", "qwen"]) {
    const row = page.getByTestId(`history-${id}`);
    await row.waitFor({ timeout: 10_000 });
    const text = (await row.textContent()) ?? "";
    if (!/1 session\b/.test(text)) problems.push(`Settings → History, ${id}: no session count: ${text}`);
    if (!(await row.getByRole("switch").isChecked())) problems.push(`Settings → History, ${id}: the mirror is off after Import with the mirror`);
  }
  await inEveryLook("settings", async () => page.getByTestId("history-claude").scrollIntoViewIfNeeded());
  await page.keyboard.press("Escape");

  // 4. Ctrl+K finds the marker from the imported tool call, with the source badge.
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox", { name: "Search sessions" }).fill("histmarker");
  const hit = page.locator(".quick-hit").filter({ hasText: "histmarker" }).first();
  await hit.waitFor({ timeout: 10_000 });
  const hitText = (await hit.locator(".quick-snippet").textContent()) ?? "";
  if (!/^Tool/.test(hitText)) problems.push(`the marker's hit is not the tool call's: ${hitText}`);
  const badge = (await hit.locator(".chip-imported").textContent()) ?? "";
  if (badge !== "Claude Code") problems.push(`the search result's source badge says "${badge}", not "Claude Code"`);
  await inEveryLook("search");
  await hit.click();
  // The hit lands on the session with the tool call; its card, opened, shows the marker it printed.
  const card = page.locator(".tool-card").filter({ hasText: "echo hello" }).first();
  await card.waitFor({ timeout: 10_000 });
  if (!(await card.evaluate((e) => e.classList.contains("open")))) await card.locator(".tool-line").click();
  await card.getByText("histmarker").first().waitFor({ timeout: 10_000 });
  const header = (await page.locator(".main-head .chip-imported").textContent()) ?? "";
  if (header !== "Claude Code") problems.push(`the imported session's badge says "${header}"`);

  // 5. Continue: the Qwen Code chat goes on in its agent (the fake agent added as qwen).
  await call("POST", "/api/agents", {
    id: "qwen", name: "Qwen Code", kind: "acp", command: agent, args: ["demo-agent"],
    env: { HERMESDESK_FAKEAGENT_STATE: state },
  });
  await page.reload({ waitUntil: "domcontentloaded" });
  const qwenRow = page.locator(".session-row").filter({ has: page.locator(".chip-imported", { hasText: "Qwen Code" }) });
  await qwenRow.waitFor({ timeout: 10_000 });
  await qwenRow.click();
  const cont = page.getByRole("button", { name: "Continue in Qwen Code" });
  await cont.waitFor({ timeout: 10_000 });
  await inEveryLook("imported", async (at) => {
    const c = await clipped(cont);
    if (c !== 0) problems.push(`${at}: "Continue in Qwen Code" is not wholly in view (${c} px out)`);
  });
  await cont.click();
  const box = page.getByLabel("Message");
  await page.waitForFunction(() => {
    const m = document.querySelector("textarea[aria-label=Message]");
    return m && !m.disabled && !m.readOnly;
  }, null, { timeout: 10_000 });
  await box.fill("go on from here");
  await box.press("Enter");
  await page.getByText("go on from here").first().waitFor({ timeout: 10_000 });
  // Three imported turns, then the new one ends: its run's footer is the fourth.
  await page.locator(".transcript").getByText("Completed", { exact: true }).nth(3).waitFor({ timeout: 60_000 });
  await waitIdle(60);
  const own = JSON.parse(readFileSync(join(state, `${native}.json`), "utf8"));
  const prompts = (own.turns ?? []).map((t) => t.prompt);
  if (prompts.length !== 2 || prompts[1] !== "go on from here") {
    problems.push(`the agent did not go on in its own session: its turns ${JSON.stringify(prompts)}; state dir ${readdirSync(state).join(", ")}`);
  }
  const sessions = await call("GET", "/api/sessions");
  const qwen = sessions.find((s) => s.native_session_id === native);
  if (!qwen || qwen.imported_from) problems.push(`the continued session is not an ordinary one: ${JSON.stringify(qwen)}`);
  const runs = await call("GET", `/api/runs?session_id=${qwen?.id}`);
  console.log(`history: the continued session's runs ${JSON.stringify(runs.map((r) => [r.agent, r.status, r.error]))}`);
  if (!runs.length || runs.some((r) => r.status !== "completed")) problems.push(`the continued run did not complete: ${JSON.stringify(runs.map((r) => r.status))}`);
  await inEveryLook("continued");
  await ctx.close();
} catch (e) {
  await failed("history", e, problems, page);
}
await browser.close();
report("history", problems);
