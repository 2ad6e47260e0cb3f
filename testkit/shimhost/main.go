// Command shimhost is the part of hermesdesk the run engine's tests need:
// the `shim` subcommand, dispatched exactly as the root main.go does, and
// `demo-agent` as the test kit's fake agent (the demo agent with the test
// scenarios — crash, hang, flood… — that the product does not ship).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/hermesdesk/hermesdesk/backend/shim"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: shimhost shim|demo-agent ...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "shim":
		os.Exit(profiled(func() int { return shim.Main(os.Args[2:]) }))
	case "demo-agent":
		os.Exit(fakeagent.Main(os.Args[2:]))
	default:
		fmt.Fprintf(os.Stderr, "shimhost: unknown subcommand %q\n", os.Args[1])
		os.Exit(2)
	}
}

// profiled runs f under a CPU profile when SHIMHOST_CPUPROFILE names a
// directory (one profile per process): how the run engine's benchmarks
// find where a shim spends its time.
func profiled(f func() int) int {
	dir := os.Getenv("SHIMHOST_CPUPROFILE")
	if dir == "" {
		return f()
	}
	out, err := os.CreateTemp(dir, "shim-*.pprof")
	if err != nil {
		return f()
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		return f()
	}
	defer pprof.StopCPUProfile()
	return f()
}
