package gitcmd

// SetProgramForTest runs p instead of git until the returned func is
// called.
func SetProgramForTest(p string) func() {
	old := program
	program = p
	return func() { program = old }
}

// forgetConfigCache empties the cache (tests).
func forgetConfigCache() {
	configCache.Lock()
	configCache.entries = map[string]*cacheEntry{}
	configCache.Unlock()
}
