// Command fakeagent is the scripted ACP agent as a standalone binary, for
// tests that should not depend on building the whole app (see package
// testkit/fakeagent). `hermesdesk demo-agent` is the same program; a leading
// "demo-agent" argument is accepted so both take the same command line.
package main

import (
	"os"

	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "demo-agent" {
		args = args[1:]
	}
	os.Exit(fakeagent.Main(args))
}
