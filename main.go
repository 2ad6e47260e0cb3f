//go:build !desktop && !dev && !bindings

// Command hermesdesk is the Hermes Desk resident core and its helper
// processes: the launcher/core (default), the CLI, serve, shims and the
// demo agent. It is built without the desktop tag and links no GUI
// toolkit; the window is a separate program (main_window.go, built with
// the desktop tag as hermesdesk-window). See docs/ARCHITECTURE.md
// §Processes. main only picks the subcommand and hands over.
package main

import (
	"embed"
	"io/fs"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/cli"
	"github.com/hermesdesk/hermesdesk/backend/demoagent"
	"github.com/hermesdesk/hermesdesk/backend/shim"
	"github.com/hermesdesk/hermesdesk/build/icons"
	"github.com/hermesdesk/hermesdesk/core"
)

//go:embed all:frontend/dist
var frontendDist embed.FS

//go:embed build/trayicon.png
var trayIcon []byte

func main() {
	args := os.Args[1:]
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "shim":
		os.Exit(shim.Main(args[1:]))
	case "serve":
		os.Exit(cli.Serve(args[1:], mustSub(frontendDist, "frontend/dist")))
	case "runs":
		os.Exit(cli.Runs(args[1:]))
	case "ask":
		os.Exit(cli.Ask(args[1:]))
	case "schedules":
		os.Exit(cli.Schedules(args[1:]))
	case "import":
		os.Exit(cli.Import(args[1:]))
	case "export":
		os.Exit(cli.Export(args[1:]))
	case "history":
		os.Exit(cli.History(args[1:]))
	case "demo-agent":
		os.Exit(demoagent.Main(args[1:]))
	default: // launch: be or reach the core, show the window; --background and a folder pass through
		os.Exit(core.Main(args, core.Options{Icons: core.Icons{Default: trayIcon, ByName: icons.TrayByName()}}))
	}
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embed pattern above guarantees dir exists
	}
	return s
}
