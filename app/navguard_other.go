//go:build !linux || !desktop

package app

import "log/slog"

// guardNavigation: the Linux window's native guard (navguard_linux.go);
// elsewhere the page's guard (frontend/src/app/guard.ts) stands alone.
func guardNavigation(func() *slog.Logger) {}
