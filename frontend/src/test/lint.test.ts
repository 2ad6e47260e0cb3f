import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The lint rules that keep the layers (transport ← store ← components ←
// app) and ban setInterval (eslint.config.js; docs/ARCHITECTURE.md
// §Window, §Idle): each fixture is linted as if it lived at the given path
// and must break exactly the rule named; a fixture that follows the rules
// lints clean, so the rules are not simply refusing everything.
const root = resolve(__dirname, "../..") + "/";
const fixture = (name: string) => readFileSync(resolve(__dirname, "lint-fixtures", name), "utf8");

async function lint(name: string, path: string) {
  const eslint = new ESLint({ cwd: root });
  const [res] = await eslint.lintText(fixture(name), { filePath: `${root}${path}` });
  return (res?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("lint rules", () => {
  it.each([
    ["transport-imports-store.txt", "src/transport/x.ts", ["no-restricted-imports"]],
    ["store-imports-components.txt", "src/store/x.ts", ["no-restricted-imports"]],
    ["components-import-app.txt", "src/components/sub/x.ts", ["no-restricted-imports"]],
    ["contract-imports.txt", "src/contract/x.gen.ts", ["no-restricted-imports"]],
    ["raw-interval.txt", "src/components/x.ts", ["no-restricted-globals", "no-restricted-properties"]],
    ["allowed.txt", "src/components/x.ts", []],
  ])("%s as %s breaks %j", async (name, path, want) => {
    expect(await lint(name, path)).toEqual(want);
  }, 30_000);

  it("bans setInterval in the clock itself too (it waits with one-shot timers)", async () => {
    expect(await lint("raw-interval.txt", "src/store/useTicker.ts")).toEqual(["no-restricted-globals", "no-restricted-properties"]);
  }, 30_000);
});
