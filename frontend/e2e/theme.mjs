// The browser's first paint is in the saved theme: a person who chose dark
// on a light system sees no light flash before the app starts. The app's
// bundle is blocked, so only public/theme-boot.js (loaded synchronously in
// <head>, allowed by the CSP as a same-origin script) can have set the
// theme; a data-theme served on <html> (the desktop window, app/themefs.go)
// wins over the browser's storage. Screenshot: e2e/out/theme-first-paint.png.
//
//   node e2e/theme.mjs --url 'http://127.0.0.1:8791/?token=…'
import { join } from "node:path";
import { out, launch, report, failed, loggedIn, required } from "./harness.mjs";

const [url] = required("node e2e/theme.mjs --url LOGIN_URL", "--url");
const origin = new URL(url).origin;
const dark = "rgb(23, 24, 27)"; // --bg, src/styles/tokens.css
const light = "rgb(255, 255, 255)";

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 600 }, colorScheme: "light" });
  page = await ctx.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await loggedIn(page);

  // The page as it paints before any of the app's code: stylesheet and
  // theme-boot.js only. served: a data-theme put on <html> by the server.
  const before = async (stored, served) => {
    await page.evaluate((t) => (t ? localStorage.setItem("hermesdesk.theme", t) : localStorage.removeItem("hermesdesk.theme")), stored);
    await page.route("**/assets/*.js", (r) => r.abort());
    if (served) {
      await page.route(`${origin}/`, async (r) => {
        const res = await r.fetch();
        const body = (await res.text()).replace("<html", `<html data-theme="${served}"`);
        await r.fulfill({ response: res, body });
      });
    }
    await page.goto(`${origin}/`, { waitUntil: "load" });
    const got = await page.evaluate(() => ({ theme: document.documentElement.getAttribute("data-theme"), bg: getComputedStyle(document.body).backgroundColor, app: document.querySelector("#root")?.childElementCount ?? -1 }));
    await page.unrouteAll();
    return got;
  };
  for (const c of [
    { name: "dark saved, light system", stored: "dark", want: dark, shot: "theme-first-paint.png" },
    { name: "light saved, light system", stored: "light", want: light },
    { name: "nothing saved, light system", stored: null, want: light },
    { name: "system saved, light system", stored: "system", want: light },
    { name: "dark saved, the window served light", stored: "dark", served: "light", want: light },
  ]) {
    const got = await before(c.stored, c.served);
    console.log(`theme ${c.name}: data-theme ${got.theme}, background ${got.bg}, app elements ${got.app}`);
    if (got.app !== 0) problems.push(`${c.name}: the app rendered (${got.app} elements) although its bundle was blocked: the check proves nothing`);
    if (got.bg !== c.want) problems.push(`${c.name}: the page paints ${got.bg} before the app, want ${c.want}`);
    if (c.shot) await page.screenshot({ path: join(out, c.shot) });
  }

  // With the app: it keeps the theme the page first painted (no flip).
  await page.evaluate(() => localStorage.setItem("hermesdesk.theme", "dark"));
  await page.goto(`${origin}/`, { waitUntil: "domcontentloaded" });
  const early = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--bg").trim());
  await page.getByRole("navigation", { name: "Projects and sessions" }).waitFor({ timeout: 10_000 });
  const after = await page.evaluate(() => ({ theme: document.documentElement.getAttribute("data-theme"), bg: getComputedStyle(document.body).backgroundColor }));
  console.log(`theme with the app: --bg at DOMContentLoaded ${early}, then data-theme ${after.theme}, background ${after.bg}`);
  if (early !== "#17181b") problems.push(`at DOMContentLoaded --bg is ${early}, want the dark #17181b`);
  if (after.theme !== "dark" || after.bg !== dark) problems.push(`once the app runs the page is ${after.theme} ${after.bg}, want dark ${dark}`);
  await ctx.close();
} catch (e) {
  await failed("theme", e, problems, page);
} finally {
  await browser.close();
}
report("theme", problems);
