// Command trayhost runs the test tray on the session bus until interrupted,
// printing the items that register and their menus. Handy to try the app's
// tray on a desktop that has none:
//
//	go run ./testkit/trayhost/cmd/trayhost &
//	build/bin/hermesdesk
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

func main() {
	h, err := trayhost.New(os.Getenv("TRAYHOST_BUS_ADDRESS"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer h.Close()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	var seen []trayhost.Item
	for {
		select {
		case <-stop:
			return
		default:
		}
		it, err := h.WaitItem(500*time.Millisecond, seen...)
		if err != nil {
			continue
		}
		seen = append(seen, it)
		menu, err := h.Menu(it)
		fmt.Printf("item %s%s menu %+v %v\n", it.Service, it.Path, menu, err)
	}
}
