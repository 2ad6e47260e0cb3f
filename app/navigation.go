package app

import "net/url"

// allowNavigation decides whether the window's webview may load target
// while it shows current: only pages of the app's own origin (its first
// load, a reload, an in-app route). Anything else — a dropped file:///…,
// a link that slipped past the page's guard, a page that navigates itself —
// is refused by the webview, whatever the page's script did
// (docs/ARCHITECTURE.md §Window).
func allowNavigation(target, current string) bool {
	if current == "" || current == "about:blank" {
		return true // the app's first load
	}
	t, err1 := url.Parse(target)
	c, err2 := url.Parse(current)
	if err1 != nil || err2 != nil || t.Opaque != "" || c.Opaque != "" {
		return false
	}
	return t.Scheme != "" && t.Host != "" && t.Scheme == c.Scheme && t.Host == c.Host
}
