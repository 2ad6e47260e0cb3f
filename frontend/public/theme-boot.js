// The saved theme on <html> before the first paint, so a page in a browser
// on `hermesdesk serve` never flashes the system's colours first. Loaded
// synchronously from index.html's <head>: a same-origin file, because the
// CSP allows no inline script (src/csp.ts). A data-theme already on <html>
// wins: the desktop window serves the page with its own saved theme
// (app/themefs.go), which painted the window's first frame. React then
// reads the same attribute (src/app/theme.ts, readTheme), so both agree.
// Plain script, no module: it must run before the stylesheet's first paint.
(function () {
  var root = document.documentElement;
  if (root.hasAttribute("data-theme")) return;
  try {
    var t = localStorage.getItem("hermesdesk.theme");
    if (t === "light" || t === "dark") root.setAttribute("data-theme", t);
  } catch (e) {
    // storage disabled: follow the system
  }
})();
