/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { CSP } from "./src/csp";

// The CSP goes into the built index.html only: Vite's dev server needs an
// inline script for React refresh, which the policy (rightly) forbids.
function csp(): Plugin {
  return {
    name: "hermesdesk-csp",
    apply: "build",
    transformIndexHtml: () => [{ tag: "meta", attrs: { "http-equiv": "Content-Security-Policy", content: CSP }, injectTo: "head-prepend" }],
  };
}

// The bundle is embedded in the Go binary (Wails) and also served by
// `hermesdesk serve`, so asset URLs are relative and nothing is inlined
// as a data: script (the CSP forbids it).
export default defineConfig({
  plugins: [react(), csp()],
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    // Dev against `hermesdesk serve` with VITE_API=http://127.0.0.1:PORT.
    proxy: process.env.VITE_API ? { "/api": process.env.VITE_API } : undefined,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    benchmark: { include: ["src/**/*.bench.ts"] },
  },
});
