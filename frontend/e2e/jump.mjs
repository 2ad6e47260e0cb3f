// Ctrl+K on a match in the session already open (issue 23.8): the
// transcript shows the matched turn (it once landed elsewhere, or left the
// rest of the transcript blank until a scroll). A session of N demo runs,
// opened at its end; then a search for an early turn's words.
//
//   node e2e/jump.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/an/empty/folder [--runs 24]
import { join } from "node:path";
import { arg, launch, openApp, out, pageApi, report, required } from "./harness.mjs";

const [url, project] = required("node e2e/jump.mjs --url LOGIN_URL --project DIR [--runs N]", "--url", "--project");
const n = Number(arg("--runs", "24"));
const title = "jump in the open session";
const problems = [];
const browser = await launch();
try {
  const page = await openApp(await browser.newContext({ viewport: { width: 1280, height: 800 } }), url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const ses = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title });
  for (let i = 0; i < n; i++) {
    await call("POST", "/api/runs", { session_id: ses.id, message: `/scenario tool — marker${i}x`, client_request_id: `jump-${Date.now()}-${i}` });
    await waitIdle(120);
  }
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title }).first().click();
  await page.getByText(`marker${n - 1}x`).first().waitFor({ timeout: 20_000 });
  for (const i of [2, Math.floor(n / 2)]) {
    const word = `marker${i}x`;
    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Search sessions" }).fill(word);
    const hit = page.getByRole("option").filter({ hasText: word }).first();
    await hit.waitFor({ timeout: 10_000 });
    await hit.click();
    await page.waitForTimeout(1500);
    const m = await page.evaluate((w) => {
      const pane = document.querySelector(".transcript-list").getBoundingClientRect();
      const rows = [...document.querySelectorAll(".transcript [data-key]")].filter((r) => {
        const b = r.getBoundingClientRect();
        return b.height > 0 && b.bottom > pane.top && b.top < pane.bottom && getComputedStyle(r).visibility !== "hidden";
      });
      const shown = rows.map((r) => r.textContent ?? "").join(" ");
      return { rows: rows.length, hasWord: shown.includes(w), covered: rows.reduce((s, r) => s + Math.min(r.getBoundingClientRect().bottom, pane.bottom) - Math.max(r.getBoundingClientRect().top, pane.top), 0) / pane.height };
    }, word);
    await page.screenshot({ path: join(out, `jump-${i}.png`) });
    console.log(`jump to ${word}: ${m.rows} rows on screen covering ${Math.round(m.covered * 100)}% of the pane, match shown: ${m.hasWord}`);
    if (!m.hasWord) problems.push(`${word}: the matched turn is not on screen`);
    if (m.covered < 0.5) problems.push(`${word}: the transcript is mostly blank (${Math.round(m.covered * 100)}% covered)`);
  }
} catch (e) {
  problems.push(String(e));
} finally {
  await browser.close();
}
report("jump", problems);
