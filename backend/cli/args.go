package cli

import (
	"flag"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// parseFit parses args (flags may stand among the positional arguments,
// parse) and checks the positional ones with fits, called after the flags
// are set so it may check their values too. A flag error (flag has said
// it, with the usage) or arguments that do not fit (the usage is printed)
// is false: the command exits with exitUsage.
func parseFit(fs *flag.FlagSet, args []string, fits func(pos []string) bool) ([]string, bool) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, false
	}
	if !fits(pos) {
		fs.Usage()
		return nil, false
	}
	return pos, true
}

// parseConnect is parseFit, then a client of the running app (connect):
// a nil client comes with the code to exit with.
func (e *Env) parseConnect(fs *flag.FlagSet, args []string, fits func(pos []string) bool) ([]string, *httpapi.Client, int) {
	pos, ok := parseFit(fs, args, fits)
	if !ok {
		return nil, nil, exitUsage
	}
	c, code := e.connect()
	return pos, c, code
}

// one fits exactly one positional argument; none fits none.
func one(pos []string) bool  { return len(pos) == 1 }
func none(pos []string) bool { return len(pos) == 0 }
