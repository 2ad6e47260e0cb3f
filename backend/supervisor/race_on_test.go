//go:build race

package supervisor_test

// raceEnabled: the shims are built with -race too, so races in them show
// up in their logs (checked at cleanup).
const raceEnabled = true
