package hosts_test

import "runtime"

func goarch() string { return runtime.GOARCH }
