//go:build !linux || !desktop

package app

import "log/slog"

// guardNavigation: the Linux window's native guard (webview_linux.go);
// elsewhere the page's guard (frontend/src/app/guard.ts) stands alone.
func guardNavigation(func() *slog.Logger) {}

// dropOffersFiles: only the Linux window can tell (webview_linux.go).
func dropOffersFiles() bool { return true }
