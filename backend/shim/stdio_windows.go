package shim

import "os"

// redirectStdio: Windows shims keep their first run's stdout and stderr;
// the structured log still follows each run.
func redirectStdio(*os.File) error { return nil }
