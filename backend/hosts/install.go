package hosts

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	build "github.com/hermesdesk/hermesdesk/backend/version"
)

// binDir is where a host keeps Hermes Desk's programs, under its home:
// one file per version, so a core still running an older one is never
// overwritten in place (docs/ARCHITECTURE.md §Hosts).
const binDir = ".local/share/hermesdesk/bin"

var versionRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)

// checkVersion refuses a version that could not be a file name in a
// shell script.
func checkVersion(v string) error {
	if !versionRE.MatchString(v) {
		return fmt.Errorf("version %q cannot name a program file", v)
	}
	return nil
}

// Binary finds the hermesdesk program for a Linux host of arch: self (this
// program) when it is built for linux/arch, else hermesdesk-linux-ARCH
// beside self (what a release ships for the other architecture). Refused
// in words when there is none.
func Binary(self, target, arch string) (string, error) {
	if runtime.GOOS == "linux" && runtime.GOARCH == arch {
		return self, nil
	}
	other := filepath.Join(filepath.Dir(self), "hermesdesk-linux-"+arch)
	if st, err := os.Stat(other); err == nil && st.Mode().IsRegular() {
		return other, nil
	}
	return "", &Error{Problem: ProblemPlatform, Target: target,
		Sentence: fmt.Sprintf("%s is a Linux %s machine, and this Hermes Desk has no program for it: put the linux-%s build as %s (from the release for that architecture) and add the host again.", target, arch, arch, other)}
}

// installScript receives the program on stdin into a temporary name in
// the install folder, checks its sha256 on the far side and only then
// renames it into place: a broken copy never takes the name.
func installScript(version, sum string) string {
	return `set -e
umask 077
d="$HOME/` + binDir + `"
mkdir -p "$d"
t=$(mktemp "$d/.hermesdesk-` + version + `.XXXXXX")
trap 'rm -f "$t"' EXIT
cat > "$t"
s=$(sha256sum < "$t" | cut -d' ' -f1)
if [ "$s" != "` + sum + `" ]; then echo "checksum mismatch: got $s" >&2; exit 3; fi
chmod 700 "$t"
mv -f "$t" "$d/hermesdesk-` + version + `"
trap - EXIT
echo installed
`
}

// install copies bin to the host as hermesdesk-VERSION unless the file
// there already has its checksum (have, from the probe). It reports
// whether it copied.
func (s SSH) install(ctx context.Context, target, version, bin, have string) (bool, error) {
	if err := checkVersion(version); err != nil {
		return false, err
	}
	sum, err := build.ProgramSum(bin)
	if err != nil {
		return false, fmt.Errorf("read the program to copy to %s: %w", target, err)
	}
	if have == sum {
		return false, nil
	}
	f, err := os.Open(bin)
	if err != nil {
		return false, fmt.Errorf("read the program to copy to %s: %w", target, err)
	}
	defer f.Close()
	out, err := s.Run(ctx, target, installScript(version, sum), f)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Problem == ProblemRemote {
			e.Sentence = fmt.Sprintf("Copying Hermes Desk to %s failed (is its disk full?).", target)
		}
		return false, err
	}
	if !bytes.Contains(out, []byte("installed")) {
		return false, fmt.Errorf("copy to %s: the host did not confirm the copy", target)
	}
	return true, nil
}

// startScript starts the host's core detached (serve --socket-only
// --detach returns once it answers) and passes on the socket it reports.
func startScript(version string) string {
	return `exec "$HOME/` + binDir + `/hermesdesk-` + version + `" serve --socket-only --detach`
}

// parseSocket reads `socket=PATH` from serve --detach's output.
func parseSocket(out []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "socket="); ok && strings.HasPrefix(v, "/") {
			return v
		}
	}
	return ""
}

// stopScript asks the host's core (the socket-only serve host-core.json
// names, in the data dir serve uses there) to stop, as SIGTERM does
// locally; a pid that is not a socket-only serve any more is left alone.
const stopScript = `d="${HERMESDESK_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/hermesdesk}"
p=$(sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p' "$d/host-core.json" 2>/dev/null)
if [ -n "$p" ] && tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q -- '--socket-only'; then kill -TERM "$p"; echo stopped; fi
`

// stopCore asks target's core to stop (Remove).
func (s *Service) stopCore(ctx context.Context, target string) error {
	out, err := s.o.SSH.Run(ctx, target, stopScript, nil)
	if err != nil {
		return err
	}
	s.log.Info("hosts: asked the host's core to stop", "target", target, "stopped", strings.Contains(string(out), "stopped"))
	return nil
}
