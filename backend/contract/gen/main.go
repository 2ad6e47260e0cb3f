// Command gen writes the generated contract (backend/contract) into the
// repository: `make contract`. Run it from the repository's root, or pass
// -root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/contract"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	for path, b := range contract.Files() {
		p := filepath.Join(*root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "contract:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "contract:", err)
			os.Exit(1)
		}
	}
}
