// The Usage view's first paint with a year of data (issue 29, target
// ≤ 300 ms; docs/ARCHITECTURE.md §Usage). scripts/bench-usage.sh seeds the
// journal with 365 days of usage and starts the real `serve`; this opens
// the app cold (a fresh browser context: no cache, the view's lazy chunk
// fetched anew) N times, clicks Usage and times, inside the page, from the
// click to the frame after both the chart's canvas and the table's rows are
// in the document. Prints the median and the maximum; asserts nothing.
//
//   node e2e/bench-usage.mjs --url 'http://127.0.0.1:8791/?token=…' [--opens 5]
import { arg, launch, required } from "./harness.mjs";

const [url] = required("node e2e/bench-usage.mjs --url LOGIN_URL [--opens N]", "--url");
const opens = Number(arg("--opens", "5"));

const browser = await launch();
const times = [];
try {
  for (let i = 0; i < opens; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: "load" });
    // A person clicks after the app has settled, not within its first
    // frame: give the app the time to fetch the view's chunk ahead (App
    // loads it after the session view's), up to 5 s.
    await page
      .waitForFunction(() => performance.getEntriesByType("resource").some((e) => /\/UsageView-[^/]*\.js$/.test(e.name) && e.responseEnd > 0), null, { timeout: 5000 })
      .catch(() => console.log("bench-usage: the Usage chunk was not fetched ahead"));
    const button = page.getByRole("button", { name: "Usage", exact: true });
    await button.waitFor({ timeout: 10_000 });
    // Armed before the click: the click's own time and the first frame
    // after the chart and the rows exist (two animation frames: the one
    // that paints them has then been presented).
    await page.evaluate(() => {
      window.__usagePaint = new Promise((resolve) => {
        let clicked = 0;
        document.addEventListener("click", () => (clicked = performance.now()), { capture: true, once: true });
        const done = () => document.querySelector(".usage-chart canvas") && document.querySelector(".usage-table tbody tr");
        const obs = new MutationObserver(() => {
          if (!clicked || !done()) return;
          obs.disconnect();
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              // Where the time went: what was fetched after the click.
              const fetched = performance
                .getEntriesByType("resource")
                .filter((e) => e.startTime >= clicked)
                .map((e) => `${new URL(e.name).pathname.split("/").pop()}${new URL(e.name).search} ${Math.round(e.startTime - clicked)}+${Math.round(e.duration)} ms`);
              resolve({ ms: performance.now() - clicked, fetched });
            }),
          );
        });
        obs.observe(document.body, { childList: true, subtree: true });
      });
    });
    await button.click();
    const { ms, fetched } = await page.evaluate(() => window.__usagePaint);
    const rows = await page.locator(".usage-table tbody tr").count();
    times.push(ms);
    console.log(`bench-usage: open ${i + 1}: ${ms.toFixed(0)} ms (${rows} table rows; after the click: ${fetched.join(", ")})`);
    await ctx.close();
  }
} finally {
  await browser.close();
}
const sorted = [...times].sort((a, b) => a - b);
const p50 = sorted[Math.floor(sorted.length / 2)];
console.log(`usage view first paint with a year of data: p50 ${p50.toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms`);
