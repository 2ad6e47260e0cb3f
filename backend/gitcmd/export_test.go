package gitcmd

// SetProgramForTest runs p instead of git until the returned func is
// called.
func SetProgramForTest(p string) func() {
	old := program
	program = p
	return func() { program = old }
}
