package cli

import "flag"

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

// one fits exactly one positional argument; none fits none.
func one(pos []string) bool  { return len(pos) == 1 }
func none(pos []string) bool { return len(pos) == 0 }
