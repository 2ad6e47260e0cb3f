// The Content-Security-Policy of the built page (injected into index.html at
// build time; the dev server's React refresh needs an inline script, so dev
// runs without it). Script injection in this webview is code execution:
// only same-origin scripts, no inline script, no eval. Wails v2 serves the
// page from wails://wails (Linux/macOS) or http://wails.localhost (Windows)
// and injects /wails/runtime.js and /wails/ipc.js, both same-origin; its
// Go→JS calls use the webview's evaluate-script API, which CSP does not
// govern. Styles need no 'unsafe-inline': React sets style via the CSSOM.
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
].join("; ");
