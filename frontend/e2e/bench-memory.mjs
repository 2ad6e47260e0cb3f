// The page's memory after a long session (issue 23.20): N runs of the demo
// agent in one session, the session opened and read from its end to its
// start (every older turn scrolled into view, so the window follows its
// run), then the JS heap after a garbage collection, from Chromium's
// DevTools protocol. Prints one line; not part of CI. Compare a branch
// with the one before it on the same machine, the absolute figure depends
// on the engine (WebKitGTK's is larger: make bench-desktop measures the real
// window over a long session, docs/ARCHITECTURE.md §Memory).
//
//   node e2e/bench-memory.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/an/empty/folder [--runs 60] [--message '/scenario tool']
import { arg, launch, loggedIn, pageApi, required } from "./harness.mjs";

const [url, project] = required("node e2e/bench-memory.mjs --url LOGIN_URL --project DIR [--runs N]", "--url", "--project");
const n = Number(arg("--runs", "60"));
// What each run is asked (the test kit's agent, set as agents.demo the way
// scripts/test-e2e.sh does, has heavier scenarios such as /scenario flood).
const message = arg("--message", "/scenario tool");
const title = `bench-memory ${n} runs`;

const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await loggedIn(page);
  const { call, waitIdle } = pageApi(page);
  const proj = await call("POST", "/api/projects", { workspace: project });
  const ses = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title });
  // One run at a time, as a person would: each demo answer has a tool card,
  // a code block and a footer.
  for (let i = 0; i < n; i++) {
    await call("POST", "/api/runs", { session_id: ses.id, message: `${message} — turn ${i}`, client_request_id: `bench-${Date.now()}-${i}` });
    await waitIdle(120);
  }
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title }).first().click();
  const list = page.getByRole("list", { name: "Transcript" }).or(page.locator(".transcript-list")).first();
  await list.waitFor({ timeout: 20_000 });
  // Read it from the end to the start, a screen at a time.
  let last = -1;
  for (let step = 0; step < 20 * n; step++) {
    const top = await list.evaluate((el) => {
      el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
      return el.scrollTop;
    });
    await page.waitForTimeout(60);
    if (top === 0 && last === 0) break;
    last = top;
  }
  await page.waitForTimeout(1000);
  if (process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.enable");
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  const nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  console.log(`bench-memory: JS heap after ${n} runs read end to start: ${(usedSize / 1048576).toFixed(1)} MiB, ${nodes} DOM elements`);
} finally {
  await browser.close();
}
