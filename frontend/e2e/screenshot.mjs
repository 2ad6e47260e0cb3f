// Screenshots of the built frontend in headless Chromium (playwright-core +
// Debian's chromium), in light and dark.
//
//   npm run build && node e2e/screenshot.mjs                 # serves dist itself (vite preview), no backend
//   node e2e/screenshot.mjs --mock                           # same, with /api answered by fixtures
//   node e2e/screenshot.mjs --url 'http://127.0.0.1:8787/?token=…'   # against `hermesdesk serve`
//
// Writes e2e/out/<name>-<light|dark>.png and fails on console errors or CSP
// violations (a CSP report means the policy and the bundle disagree).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { mockApi } from "./mockApi.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "out");
mkdirSync(out, { recursive: true });

const args = process.argv.slice(2);
const mock = args.includes("--mock");
const urlArg = args[args.indexOf("--url") + 1];
const external = args.includes("--url") ? urlArg : undefined;
// --widths 420,720,1280: the main screenshot at each width (narrow layouts).
const widths = args.includes("--widths") ? args[args.indexOf("--widths") + 1].split(",").map(Number) : [1280];
const port = 4173 + Math.floor(Math.random() * 500);

let server;
async function serve() {
  // Started directly (not through npx) so its pid is the server's.
  server = spawn(process.execPath, [join(here, "..", "node_modules", "vite", "bin", "vite.js"), "preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"], {
    cwd: join(here, ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("vite preview did not start")), 20000);
    server.stdout.on("data", (d) => {
      if (String(d).includes(String(port))) {
        clearTimeout(t);
        resolve();
      }
    });
    server.on("exit", (c) => reject(new Error(`vite preview exited ${c}`)));
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failed = false;
try {
  if (!external) await serve();
  const base = external ?? `http://127.0.0.1:${port}/`;
  for (const scheme of ["light", "dark"]) for (const width of widths) {
    const ctx = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const problems = [];
    page.on("console", (m) => {
      if (m.type() === "error" && !/Failed to load resource/.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    if (mock) await mockApi(page);
    await page.goto(base, { waitUntil: mock ? "networkidle" : "domcontentloaded" }); // a live app keeps its watch stream open
    const name = mock ? "mock" : external ? "serve" : "no-backend";
    await page.waitForTimeout(mock ? 1200 : 600);
    const tag = width === 1280 ? scheme : `${width}-${scheme}`;
    await page.screenshot({ path: join(out, `${name}-${tag}.png`) });
    // The page never scrolls sideways: nothing is wider than the window.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) problems.push(`${width} px: the page is ${wide} px wider than the window`);
    if (width < 860) {
      // Narrow: the sidebar is an overlay, opened from the header and closed by Esc.
      if (await page.locator("nav.sidebar").count()) problems.push(`${width} px: the sidebar is docked`);
      await page.getByRole("button", { name: "Show sidebar" }).click();
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `${name}-${tag}-sidebar.png`) });
      const box = await page.locator("nav.sidebar").boundingBox();
      const main = await page.locator("main").boundingBox();
      if (!box || box.width > width * 0.9) problems.push(`${width} px: the sidebar overlay is ${box?.width} px wide`);
      if (!main || main.width < width - 1) problems.push(`${width} px: opening the sidebar squeezed the page to ${main?.width} px`);
      await page.keyboard.press("Escape");
      await page.waitForTimeout(100);
      if (await page.locator("nav.sidebar").count()) problems.push(`${width} px: Esc did not close the sidebar`);
    }
    if (width !== 1280) {
      console.log(`${scheme}: wrote ${name}-${tag}.png`);
      if (problems.length) {
        failed = true;
        console.error(`${tag}: ${problems.join("\n  ")}`);
      }
      await ctx.close();
      continue;
    }
    if (mock) {
      if ((await page.locator(".approval-card.pending").count()) !== 1) problems.push("live approval (sent over SSE) not shown");
      // Expand the first tool card and open the inspector.
      await page.locator(".tool-line").first().click();
      await page.keyboard.press("Control+i");
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `${name}-expanded-${scheme}.png`) });
      await page.keyboard.press("?");
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `${name}-shortcuts-${scheme}.png`) });
      await page.keyboard.press("Escape");
      const stillOpen = await page.locator("[role=dialog]").count();
      if (stillOpen) problems.push("Esc did not close the shortcut sheet");
      await page.keyboard.press("Control+,");
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `${name}-settings-${scheme}.png`) });
      await page.keyboard.press("Escape");
      const pwned = await page.evaluate(() => window.__pwned);
      if (pwned) problems.push(`hostile markdown executed: ${pwned}`);
    } else if (!external) {
      const text = await page.locator("main").innerText();
      if (!text.includes("Backend not connected")) problems.push("no-backend state not shown");
      if ((await page.locator("nav.sidebar").count()) !== 1) problems.push("sidebar missing");
    }
    if (problems.length) {
      failed = true;
      console.error(`${scheme}: ${problems.join("\n  ")}`);
    }
    console.log(`${scheme}: wrote ${name}-${scheme}.png`);
    await ctx.close();
  }
} finally {
  await browser.close();
  if (server) server.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
