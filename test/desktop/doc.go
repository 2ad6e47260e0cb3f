// Package desktop holds the smoke tests and the benchmark of the real built
// app (build/bin/hermesdesk) under Xvfb, with a window manager, a private
// D-Bus session bus and a test tray host. They are behind the desktoptest
// build tag so plain `go test ./...` does not run them twice:
//
//	make test-desktop     # the tests
//	make bench-desktop    # startup time and memory
package desktop
