//go:build !linux || !desktop

package app

import (
	"context"
	"log/slog"
)

// guardNavigation: the Linux window's native guard (webview_linux.go);
// elsewhere the page's guard (frontend/src/app/guard.ts) stands alone.
func guardNavigation(func() *slog.Logger) {}

// dropOffersFiles: only the Linux window can tell (webview_linux.go).
func dropOffersFiles() bool { return true }

// clipboardImage: only the Linux window reads the clipboard natively
// (clipboard_linux.go); elsewhere the page's own paste stands alone.
func clipboardImage(context.Context) ([]byte, error) { return nil, nil }
