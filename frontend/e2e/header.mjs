// The session header at 720 and 420 px, light and dark: a long session
// title keeps a usable share of the header at 720 px (it once shrank to
// "/scen…" while the agent, model and status chips kept their full width),
// and the status badge, one short word, always shows whole (it was once
// cut to "Complet"): the title is what gives way. Widths are measured, not
// eyeballed; screenshots go to e2e/out/header-{720,420}-*.png. Then the
// Settings dialog at 420/720/1280 px fits the window (settings-*.png).
// A quota line (the page is told one) is cut, never past the header.
//
//   node e2e/header.mjs --url 'http://127.0.0.1:8791/?token=…' --project /path/to/an/empty/folder
import { join } from "node:path";
import { out, launch, report, pageApi, failed, openApp, required, looks } from "./harness.mjs";

const [url, project] = required("node e2e/header.mjs --url LOGIN_URL --project DIR", "--url", "--project");
const title = "/scenario clarify — a session title long enough to need its room";

const browser = await launch();
const problems = [];
let page;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openApp(ctx, url, problems);
  const { call, waitIdle } = pageApi(page);
  // A session with a finished run: the header shows the title, the agent
  // and model chip and the status badge.
  const proj = await call("POST", "/api/projects", { workspace: project });
  const ses = await call("POST", "/api/sessions", { project_id: proj.id, agent: "demo", title });
  await call("POST", "/api/runs", { session_id: ses.id, message: "hello", client_request_id: `header-${Date.now()}` });
  await waitIdle();
  // The quota line (issue 29): the demo agent reports no window, so the
  // page is told one for its vendor — the longest a line gets, stale — to
  // measure that it gives way at 420 px instead of overflowing.
  const quotaLine = "Demo: 5-hour limit reached, resets Mon 14:20 (as of 3 hours ago)";
  await page.route("**/api/usage/quota", (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ quota: [{ vendor: "demo", window: "five_hour", limited: true, resets_at: 0, seen_at: new Date().toISOString(), line: quotaLine }] }) }),
  );
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByRole("navigation", { name: "Projects and sessions" }).getByRole("button", { name: title }).first().click();
  await page.locator(".main-head .badge").first().waitFor({ timeout: 10_000 });
  await page.locator(".main-head .session-quota").waitFor({ timeout: 10_000 });

  for await (const { at, width, scheme } of looks(page, [720, 420])) {
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `header-${width}-${scheme}.png`) });
    const m = await page.evaluate(() => {
      const head = document.querySelector(".main-head");
      const t = document.querySelector(".main-head h1 .title-btn") ?? document.querySelector(".main-head h1");
      const box = (el) => ({ shown: Math.round(el.getBoundingClientRect().width), full: el.scrollWidth, text: (el.textContent ?? "").trim() });
      const chips = [...document.querySelectorAll(".main-head > .chip, .main-head > .badge, .main-head > * > .badge")]
        .filter((el) => el.getBoundingClientRect().width > 0)
        .map((el) => ({ ...box(el), agent: el.classList.contains("chip-agent") }));
      const badge = document.querySelector(".main-head .badge");
      const b = badge && { text: (badge.textContent ?? "").trim(), client: badge.clientWidth, scroll: badge.scrollWidth, shown: badge.getBoundingClientRect().width };
      const qEl = document.querySelector(".main-head .session-quota");
      const quota = qEl && { shown: Math.round(qEl.getBoundingClientRect().width), left: qEl.getBoundingClientRect().left, right: qEl.getBoundingClientRect().right, headRight: head.getBoundingClientRect().right, tip: qEl.getAttribute("title") };
      return { quota, head: head ? Math.round(head.getBoundingClientRect().width) : 0, overflow: head ? head.scrollWidth - head.clientWidth : 0, title: t ? box(t) : null, chips, badge: b };
    });
    console.log(`header ${at}: badge "${m.badge?.text}" ${m.badge?.client}/${m.badge?.scroll} px, header ${m.head} px, title ${m.title?.shown}/${m.title?.full} px, chips ${m.chips.map((c) => `${c.text} ${c.shown}/${c.full}`).join(", ")}`);
    if (!m.title) {
      problems.push(`${at}: no session title in the header`);
      continue;
    }
    // The title is whole, or keeps at least half the header (up to 260 px),
    // as app.css promises: never a few characters next to full-width chips.
    // At 420 px the session's setting chips make way (issue 23.15: the
    // title was cut to "/scena…", 79 px): a few words, 120 px at least.
    const floor = width >= 720 ? Math.min(m.head / 2, 260) - 2 : 120;
    const whole = m.title.full <= m.title.shown + 1;
    if (!whole && m.title.shown < floor) {
      const full = m.chips.filter((c) => c.full <= c.shown + 1 && c.shown > 0).map((c) => c.text);
      problems.push(`${at}: the title shows ${m.title.shown} of ${m.title.full} px (floor ${Math.round(floor)}) while chips keep their full width: ${full.join(", ")}`);
    }
    // The badge's whole word is shown: nothing of it clipped.
    if (!m.badge || m.badge.shown === 0) problems.push(`${at}: no status badge in the header`);
    else if (m.badge.scroll > m.badge.client) problems.push(`${at}: the status badge "${m.badge.text}" is clipped (${m.badge.client} of ${m.badge.scroll} px shown)`);
    console.log(`header ${at}: quota line ${m.quota?.shown} px, ends at ${Math.round(m.quota?.right ?? 0)} of ${Math.round(m.quota?.headRight ?? 0)} px`);
    if (!m.quota || m.quota.shown === 0) problems.push(`${at}: no quota line in the header`);
    else {
      if (m.quota.right > m.quota.headRight + 1) problems.push(`${at}: the quota line runs ${Math.round(m.quota.right - m.quota.headRight)} px past the header`);
      if (m.quota.tip !== quotaLine) problems.push(`${at}: the quota line's tooltip is "${m.quota.tip}", not the whole line`);
    }
    if (m.overflow > 1) problems.push(`${at}: the header's content is ${m.overflow} px wider than the header`);
    if (m.chips.length === 0) problems.push(`${at}: no chips in the header to measure against`);
    // The agent chip names one agent: a word, never cut to "dem".
    for (const c of m.chips.filter((c) => c.agent && c.shown > 0 && c.shown + 1 < c.full)) problems.push(`${at}: the agent chip "${c.text}" is cut (${c.shown} of ${c.full} px)`);
  }
  // The Settings dialog at 420/720/1280 px, light and dark (issue 23.15: at
  // 420 px it overflowed sideways): it fits the window, nothing in it
  // reaches past its right edge, and it never scrolls sideways.
  for await (const look of looks(page, [420, 720, 1280])) {
    const { width, scheme } = look;
    const at = `Settings at ${look.at}`;
    await page.keyboard.press("Control+Comma");
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.waitFor({ timeout: 10_000 });
    // The agents list is read from the service: wait for it before measuring.
    await dialog.getByText(/Retention|Keep history|Agents/i).first().waitFor({ timeout: 10_000 }).catch(() => {});
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, `settings-${width}-${scheme}.png`) });
    const m = await page.evaluate(() => {
      const d = document.querySelector(".dialog");
      const r = d.getBoundingClientRect();
      const body = d.querySelector(".dialog-body");
      const past = [...d.querySelectorAll("*")]
        .filter((el) => el.getBoundingClientRect().width > 0 && !el.closest("details:not([open]) > :not(summary)"))
        .map((el) => ({ el, right: el.getBoundingClientRect().right }))
        .filter((x) => x.right > r.right + 1)
        .map((x) => `${x.el.tagName.toLowerCase()}.${[...x.el.classList].join(".")} "${(x.el.textContent ?? "").trim().slice(0, 30)}" +${Math.round(x.right - r.right)} px`);
      return {
        left: r.left, right: r.right, vw: window.innerWidth,
        sideways: d.scrollWidth - d.clientWidth, bodySideways: body ? body.scrollWidth - body.clientWidth : 0,
        page: document.documentElement.scrollWidth - window.innerWidth, past: past.slice(0, 5),
      };
    });
    console.log(`${at}: dialog ${Math.round(m.left)}–${Math.round(m.right)} of ${m.vw} px, scrolls sideways ${m.sideways} px, elements past its edge ${m.past.length}`);
    if (m.left < 0 || m.right > m.vw) problems.push(`${at}: the dialog (${Math.round(m.left)}–${Math.round(m.right)} px) does not fit the ${m.vw} px window`);
    if (m.sideways > 1 || m.bodySideways > 1) problems.push(`${at}: the dialog scrolls sideways by ${Math.max(m.sideways, m.bodySideways)} px`);
    if (m.page > 1) problems.push(`${at}: the page is ${m.page} px wider than the window`);
    for (const x of m.past) problems.push(`${at}: ${x} past the dialog's right edge`);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached", timeout: 5_000 });
  }
  await ctx.close();
} catch (e) {
  await failed("header", e, problems, page);
} finally {
  await browser.close();
}
report("header", problems);
