// What every end-to-end script shares: its command-line arguments, the
// screenshot folder, Debian's Chromium, the logged-in tab, the looks a
// window is checked in, and the one way a flow reports.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

/** Screenshots and downloads of the flows (e2e/out). */
export const out = join(dirname(fileURLToPath(import.meta.url)), "out");
mkdirSync(out, { recursive: true });

/** The value after --name on the command line, else def. */
export function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
}

/** The values after each of names, in order; one missing: the usage line, exit 2. */
export function required(usage, ...names) {
  const values = names.map((n) => arg(n));
  if (values.some((v) => !v)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return values;
}

/** Headless Chromium (CHROMIUM, else Debian's /usr/bin/chromium). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * A tab of the app in ctx, logged in: the login link opened and its token
 * taken into the tab (sessionStorage); the page's errors are problems.
 */
export async function openApp(ctx, loginUrl, problems) {
  const page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(loginUrl, { waitUntil: "domcontentloaded" });
  await loggedIn(page);
  return page;
}

/** Waits until the tab holds its token: the login link was taken. */
export function loggedIn(page) {
  return page.waitForFunction(() => sessionStorage.getItem("hermesdesk.token") !== null, null, { timeout: 10_000 });
}

/**
 * The looks a flow checks the window in: each of widths, light then dark.
 * Each is set on the page (colour scheme; width × 800 px) before it is
 * yielded as { at: "420 px dark", width, scheme }; after the last the page
 * is 1280 px wide again.
 */
export async function* looks(page, widths) {
  for (const width of widths) {
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      yield { at: `${width} px ${scheme}`, width, scheme };
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A workspace's branch as the window names it: without the app's prefix (src/components/workspaces/workspaceText.ts shortName). */
export function shortBranch(w) {
  return (w.branch || w.id.replace(/^wsp_/, "")).replace(/^hermesdesk\//, "");
}

/** How many px the page is wider than the window (0 or less: it fits). */
export function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** A flow's throw: a problem, with the page as it was in e2e/out/NAME-failure.png. */
export async function failed(name, e, problems, page) {
  problems.push(String(e?.stack ?? e));
  await page?.screenshot({ path: join(out, `${name}-failure.png`) }).catch(() => {});
}

/** Ends the flow: exit 1 listing the problems, or say it passed. */
export function report(name, problems) {
  if (problems.length) {
    console.error(`${name}: FAILED\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`${name}: ok`);
}

/** An API call's answer: JSON, or null for an empty body; a failure throws. */
async function answer(m, p, r) {
  const text = await r.text();
  if (!r.ok) throw new Error(`${m} ${p}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Waits, asking with get, until no run is active. */
async function untilIdle(get, seconds) {
  for (let i = 0; i < seconds * 10; i++) {
    if ((await get("/api/runs?status=active")).length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`runs still active after ${seconds} s`);
}

/**
 * The API from the script, with the login link's token: call(method, path,
 * body) and waitIdle(seconds).
 */
export function apiFrom(loginUrl) {
  const u = new URL(loginUrl);
  const token = u.searchParams.get("token");
  const call = async (method, path, body) =>
    answer(method, path, await fetch(u.origin + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
  return { origin: u.origin, token, call, waitIdle: (seconds = 60) => untilIdle((p) => call("GET", p), seconds) };
}

/**
 * The API from inside the page, with the tab's own token (what the server
 * holds now, after a flow replaced it): call(method, path, body) and
 * waitIdle(seconds).
 */
export function pageApi(page) {
  const call = (method, path, body) =>
    page.evaluate(async ([m, p, b]) => {
      const token = sessionStorage.getItem("hermesdesk.token") ?? "";
      const r = await fetch(p, { method: m, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await r.text();
      if (!r.ok) throw new Error(`${m} ${p}: ${r.status} ${text}`);
      return text ? JSON.parse(text) : null;
    }, [method, path, body]);
  return { call, waitIdle: (seconds = 60) => untilIdle((p) => call("GET", p), seconds) };
}
