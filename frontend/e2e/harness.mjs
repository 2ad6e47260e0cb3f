// What every end-to-end script shares: its command-line arguments, the
// screenshot folder, Debian's Chromium, and the one way a flow reports.
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

/** Headless Chromium (CHROMIUM, else Debian's /usr/bin/chromium). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** Ends the flow: exit 1 listing the problems, or say it passed. */
export function report(name, problems) {
  if (problems.length) {
    console.error(`${name}: FAILED\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`${name}: ok`);
}
