// Command hermesdesk is the Hermes Desk desktop app and its helper
// processes. main only picks the subcommand and hands over; each case is one
// line so new subcommands stay easy to add.
package main

import (
	"embed"
	"io/fs"
	"os"

	"github.com/hermesdesk/hermesdesk/app"
	"github.com/hermesdesk/hermesdesk/app/tray"
	"github.com/hermesdesk/hermesdesk/backend/cli"
	"github.com/hermesdesk/hermesdesk/backend/shim"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

//go:embed all:frontend/dist
var frontendDist embed.FS

//go:embed build/icons/hermesdesk-256.png
var appIcon []byte

//go:embed build/trayicon.png
var trayIcon []byte

func main() {
	args := os.Args[1:]
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "tray":
		os.Exit(tray.Main(trayIcon))
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
	case "demo-agent":
		os.Exit(fakeagent.Main(args[1:]))
	default: // the app; its flags (--background) and any paths pass through
		os.Exit(app.Main(args, app.Assets{Frontend: mustSub(frontendDist, "frontend/dist"), Icon: appIcon, TrayIcon: trayIcon}))
	}
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embed pattern above guarantees dir exists
	}
	return s
}
