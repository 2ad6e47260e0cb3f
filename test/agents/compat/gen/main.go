// Command gen writes the agent compatibility table from the real agents'
// results (test/agents/testdata/compat.json, written by `make test-agents`)
// into README.md between its compat markers.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hermesdesk/hermesdesk/test/agents/compat"
)

func main() {
	in := flag.String("in", "test/agents/testdata/compat.json", "the results JSON")
	readme := flag.String("readme", "README.md", "the README to write the table into")
	flag.Parse()
	if err := run(*in, *readme); err != nil {
		fmt.Fprintln(os.Stderr, "compat:", err)
		os.Exit(1)
	}
}

func run(in, readme string) error {
	rows, err := compat.Load(in)
	if err != nil {
		return err
	}
	doc, err := os.ReadFile(readme)
	if err != nil {
		return fmt.Errorf("read the README: %w", err)
	}
	out, err := compat.Replace(doc, compat.Table(rows))
	if err != nil {
		return err
	}
	return os.WriteFile(readme, out, 0o644)
}
