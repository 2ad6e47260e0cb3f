// Schedules in the browser against a running `hermesdesk serve` (real
// scheduler, the demo agent): create a schedule from the UI, see the
// preview of its next five runs, run it now, find the run in its history
// and open it. Screenshots go to e2e/out/schedules-*.png.
//
//   node e2e/schedules.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/a/folder
import { join } from "node:path";
import { out, launch, report, failed, required } from "./harness.mjs";

const [url, project] = required("node e2e/schedules.mjs --url LOGIN_URL --project DIR", "--url", "--project");

const browser = await launch();
const problems = [];
let page;
const step = (s) => console.log(`schedules: ${s}`);

async function api(path) {
  return page.evaluate(async (p) => {
    const token = sessionStorage.getItem("hermesdesk.token") ?? "";
    const r = await fetch(p, { headers: { Authorization: `Bearer ${token}` } });
    return r.json();
  }, path);
}

try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB", timezoneId: "Europe/Berlin" });
  page = await ctx.newPage();
  // The preview of a phrase it cannot read is a 400 on purpose; the browser logs it.
  page.on("console", (m) => m.type() === "error" && !/status of 400/.test(m.text()) && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  // Not "networkidle": the watch bus keeps one stream open for good.
  await page.goto(url, { waitUntil: "domcontentloaded" });

  if ((await api("/api/projects")).length === 0) {
    step("add project");
    await page.getByRole("button", { name: "Add a project folder" }).click();
    await page.getByLabel("Folder path").fill(project);
    await page.getByRole("button", { name: "Add folder" }).click();
  }

  step("open Schedules");
  await page.getByRole("button", { name: "Schedules", exact: true }).click();
  await page.getByRole("heading", { name: "Schedules" }).waitFor({ timeout: 10_000 });

  step("create a schedule and see its preview");
  await page.getByRole("button", { name: /New schedule/ }).click();
  const form = page.getByRole("form", { name: "New schedule" });
  await form.getByLabel("Prompt", { exact: true }).fill("/scenario demo\nmorning check");
  await form.getByLabel("Name", { exact: true }).fill("Morning check");
  await form.getByLabel("Agent", { exact: true }).selectOption("demo");
  await form.getByLabel("Time zone", { exact: true }).fill("Europe/Berlin");
  await form.getByLabel("When", { exact: true }).fill("every blue moon");
  await form.getByRole("alert").filter({ hasText: "does not understand" }).waitFor({ timeout: 10_000 });
  step("example chips: readable and styled, light and dark");
  for (const scheme of ["dark", "light"]) {
    await page.emulateMedia({ colorScheme: scheme });
    const chips = await form.locator(".schedule-examples .chip").evaluateAll((els) => els.map((el) => {
      const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const own = getComputedStyle(el).backgroundColor;
      let bg = el;
      while (bg && (getComputedStyle(bg).backgroundColor === "rgba(0, 0, 0, 0)" || getComputedStyle(bg).backgroundColor === "transparent")) bg = bg.parentElement;
      const a = lum(rgb(getComputedStyle(el).color));
      const b = lum(rgb(bg ? getComputedStyle(bg).backgroundColor : "rgb(255,255,255)"));
      const cs = getComputedStyle(el);
      return { text: el.textContent, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), radius: parseFloat(cs.borderTopLeftRadius),
        sameFont: cs.fontFamily === getComputedStyle(document.body).fontFamily,
        // A face of its own other than the surface it sits on: the browser's button face.
        ownFace: own !== "rgba(0, 0, 0, 0)" && own !== "transparent" && own !== getComputedStyle(el.parentElement).backgroundColor };
    }));
    if (chips.length === 0) problems.push("no example chips");
    for (const c of chips) {
      if (c.contrast < 4.5) problems.push(`${scheme}: chip "${c.text}" contrast ${c.contrast.toFixed(2)} < 4.5`);
      if (c.radius < 8 || !c.sameFont || c.ownFace) problems.push(`${scheme}: chip "${c.text}" looks like a native button (radius ${c.radius}, app font ${c.sameFont}, own face ${c.ownFace})`);
    }
    await page.screenshot({ path: join(out, `schedules-chips-${scheme}.png`) });
  }
  await form.getByLabel("When", { exact: true }).fill("every weekday at 9:00");
  const preview = form.getByRole("list", { name: "Next runs" });
  await preview.waitFor({ timeout: 10_000 });
  const items = await preview.getByRole("listitem").allTextContents();
  if (items.length !== 5) problems.push(`preview lists ${items.length} runs, want 5`);
  for (const it of items) {
    if (!it.includes("09:00") || /Sat|Sun/.test(it)) problems.push(`preview time is not a weekday 9:00: ${it}`);
  }
  await page.screenshot({ path: join(out, "schedules-form.png") });
  await form.getByRole("button", { name: "Create schedule" }).click();
  const row = page.locator("tr", { hasText: "Morning check" });
  await row.waitFor({ timeout: 10_000 });
  if (!(await row.textContent()).includes("every weekday at 9:00")) problems.push("the row does not say when it runs");

  step("run it now and find the run in its history");
  await page.getByRole("button", { name: "Run Morning check now" }).click();
  const hist = page.getByRole("region", { name: "History of Morning check" });
  await hist.locator('.firing[data-firing-status="completed"]').waitFor({ timeout: 60_000 });
  await row.locator(".badge", { hasText: "Completed" }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(out, "schedules-history.png") });
  step("the Schedules table at 420 px, light and dark: nothing sideways");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 420, height: 800 });
    await row.waitFor();
    // The sidebar undocks once the app sees the width: wait for the layout
    // to settle (or time out and report what is still too wide).
    const fits = () => {
      const view = document.querySelector(".schedules");
      return document.documentElement.scrollWidth <= window.innerWidth && !!view && view.scrollWidth <= view.clientWidth;
    };
    await page.waitForFunction(fits, null, { timeout: 5_000 }).catch(() => {});
    const wide = await page.evaluate(() => {
      const view = document.querySelector(".schedules");
      return { page: document.documentElement.scrollWidth - window.innerWidth, view: view ? view.scrollWidth - view.clientWidth : -1 };
    });
    if (wide.page > 0 || wide.view > 0) problems.push(`420 px ${scheme}: the Schedules view is wider than the window (page +${wide.page} px, view +${wide.view} px)`);
    await page.screenshot({ path: join(out, `schedules-420-${scheme}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  const [s] = (await api("/api/schedules")).filter((x) => x.name === "Morning check");
  const h = await api(`/api/schedules/${s.id}/history`);
  if (h.length !== 1 || h[0].status !== "completed" || !h[0].run_id) problems.push(`history on the server: ${JSON.stringify(h)}`);

  step("open the run");
  await hist.getByRole("button", { name: "Open run" }).click();
  await page.locator(".main-head .badge", { hasText: "Completed" }).waitFor({ timeout: 15_000 });
  await page.locator(".done-line").first().waitFor({ timeout: 15_000 });
  await page.screenshot({ path: join(out, "schedules-run.png") });

  step("delete with confirmation");
  await page.getByRole("button", { name: "Schedules", exact: true }).click();
  await page.getByRole("button", { name: "Delete Morning check" }).click();
  await page.getByRole("dialog", { name: "Delete schedule" }).getByRole("button", { name: "Delete schedule" }).click();
  await row.waitFor({ state: "detached", timeout: 10_000 });
  await ctx.close();
} catch (e) {
  await failed("schedules", e, problems, page);
} finally {
  await browser.close();
}
report("schedules", problems);
