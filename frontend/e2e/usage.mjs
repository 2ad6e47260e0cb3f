// The Usage view at 420 and 1280 px, light and dark: after a few runs the
// chart is drawn inside the view (no sideways scrolling of the page), the
// legend names the agent, the table has its rows and total, and Export CSV
// hands over a CSV file. Screenshots go to e2e/out/usage-{420,1280}-*.png.
//
//   node e2e/usage.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/an/empty/folder
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks } from "./harness.mjs";

const [url, project] = required("node e2e/usage.mjs --url LOGIN_URL --project DIR", "--url", "--project");

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const ses = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title: "usage" });
  for (let i = 0; i < 2; i++) {
    await call("POST", "/api/runs", { session_id: ses.id, message: `hello ${i}`, client_request_id: `usage-${Date.now()}-${i}` });
    await waitIdle();
  }
  const api = await call("GET", "/api/usage?group=agent");
  const demo = api.rows.find((r) => r.key === "demo");
  if (!demo || demo.runs < 2) problems.push(`GET /api/usage?group=agent has no demo runs: ${JSON.stringify(api)}`);
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Usage", exact: true }).click();
  await page.locator(".usage-chart canvas").waitFor({ timeout: 10_000 });

  for await (const { at, width, scheme } of looks(page, [1280, 420])) {
    if (width < 700 && (await page.locator(".sidebar").count()) > 0 && (await page.locator(".sidebar-backdrop").count()) > 0) {
      await page.locator(".sidebar-backdrop").click();
    }
    // The chart redraws on the width and the theme: wait for a canvas that fits.
    await page.waitForFunction(
      () => {
        const c = document.querySelector(".usage-chart canvas");
        const v = document.querySelector(".usage");
        return c && v && c.getBoundingClientRect().width <= v.getBoundingClientRect().width + 1;
      },
      null,
      { timeout: 5000 },
    ).catch(() => {});
    await page.screenshot({ path: join(out, `usage-${width}-${scheme}.png`) });
    const m = await page.evaluate(() => {
      const v = document.querySelector(".usage");
      const c = document.querySelector(".usage-chart canvas");
      const legend = [...document.querySelectorAll(".usage-chart .u-legend .u-series th")].map((e) => (e.textContent ?? "").trim());
      const rows = [...document.querySelectorAll(".usage-table tbody tr")].map((r) => (r.textContent ?? "").trim());
      const total = (document.querySelector(".usage-table tfoot") ?? {}).textContent ?? "";
      const limits = (document.querySelector(".usage-quota") ?? {}).textContent ?? "";
      const axis = document.querySelector(".usage-chart .u-axis");
      return {
        view: v ? Math.round(v.getBoundingClientRect().width) : 0,
        chart: c ? Math.round(c.getBoundingClientRect().width) : 0,
        chartHeight: c ? Math.round(c.getBoundingClientRect().height) : 0,
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        legend,
        rows,
        total,
        limits,
        axisColor: axis ? getComputedStyle(axis).color : "",
        bg: getComputedStyle(document.body).backgroundColor,
      };
    });
    console.log(`usage ${at}: view ${m.view} px, chart ${m.chart}×${m.chartHeight} px, legend ${m.legend.join(", ")}, rows ${m.rows.length}, bg ${m.bg}`);
    if (!m.chart || m.chartHeight < 120) problems.push(`${at}: no chart (${m.chart}×${m.chartHeight})`);
    if (m.chart > m.view + 1) problems.push(`${at}: the chart (${m.chart} px) is wider than the view (${m.view} px)`);
    if (m.pageOverflow > 1) problems.push(`${at}: the page scrolls sideways by ${m.pageOverflow} px`);
    if (!m.legend.some((l) => l.includes("demo"))) problems.push(`${at}: the legend does not name the demo agent: ${m.legend.join(", ")}`);
    if (!m.rows.some((r) => r.startsWith("demo"))) problems.push(`${at}: the table has no demo row: ${m.rows.join(" | ")}`);
    if (!m.total.includes("Total")) problems.push(`${at}: the table has no total`);
    if (!m.limits.includes("Limits")) problems.push(`${at}: no Limits section`);
  }

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const file = join(out, download.suggestedFilename());
  await download.saveAs(file);
  const csv = readFileSync(file, "utf8");
  if (!csv.startsWith("agent,runs,") || !/\ndemo,\d+,/.test(csv)) problems.push(`the CSV is not the table: ${csv.slice(0, 200)}`);
  await ctx.close();
} catch (e) {
  await failed("usage", e, problems, page);
}
await browser.close();
report("usage", problems);
