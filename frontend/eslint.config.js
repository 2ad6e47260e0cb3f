// ESLint for the frontend: the React hooks rules above all (a stale
// dependency list is a stale transcript). TypeScript 7 has no JS compiler
// API for typescript-eslint, so files are parsed by Babel's TypeScript
// preset; `tsc --noEmit` (npm run typecheck) checks the types.
import babelParser from "@babel/eslint-parser";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const TICKER = "no setInterval: use useTicker (store/useTicker.ts), one timer to the next visible change";

export default [
  { ignores: ["dist/**", "node_modules/**", "wailsjs/**", "e2e/**"] },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [
            ["@babel/preset-typescript", { isTSX: true, allExtensions: true }],
            ["@babel/preset-react", { runtime: "automatic" }],
          ],
        },
      },
      globals: { ...globals.browser },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "no-debugger": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      // Nothing ticks while idle (docs/ARCHITECTURE.md §Idle): a clock goes
      // through store/useTicker.ts, one one-shot timer to the next visible
      // change; setInterval is banned everywhere, useTicker.ts included.
      "no-restricted-globals": ["error", { name: "setInterval", message: TICKER }],
      "no-restricted-properties": [
        "error",
        { object: "window", property: "setInterval", message: TICKER },
        { object: "globalThis", property: "setInterval", message: TICKER },
        { object: "self", property: "setInterval", message: TICKER },
      ],
    },
  },
  // The layers (docs/ARCHITECTURE.md §Window): transport ← store ←
  // components ← app; each imports only those to its left, and the
  // generated contract (src/contract) imports nothing.
  layer("src/contract/**", /^\.\.?\//.source, "the generated contract imports nothing"),
  layer("src/transport/**", below("store", "components", "app"), "transport is the bottom layer: it imports no store, component or app code"),
  layer("src/store/**", below("components", "app"), "store imports transport only, never components or app"),
  layer("src/components/**", below("app"), "components import store and transport, never app"),
];

function below(...layers) {
  return `^(\\.\\./)+(${layers.join("|")})(/|$)`;
}

function layer(files, regex, message) {
  return { files: [files], rules: { "no-restricted-imports": ["error", { patterns: [{ regex, message }] }] } };
}
