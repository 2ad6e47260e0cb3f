//go:build !windows

package autostart

// hkcuRun exists off Windows only so NewFor compiles; tests pass a fake RunKey.
type hkcuRun struct{}

func (hkcuRun) Get(string) (string, error) { return "", ErrUnsupported }
func (hkcuRun) Set(string, string) error   { return ErrUnsupported }
func (hkcuRun) Delete(string) error        { return ErrUnsupported }
