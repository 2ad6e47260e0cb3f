package hosts

import (
	"bufio"
	"bytes"
	"strings"
)

// Platform is a host's operating system and architecture, in Go's words.
type Platform struct {
	OS   string // "linux", "darwin", … ; uname -s lowercased
	Arch string // "amd64", "arm64", or uname -m as it said
}

// Supported is what Hermes Desk runs on as a host: Linux on amd64 or
// arm64 (the binaries `make package` builds).
func (p Platform) Supported() bool {
	return p.OS == "linux" && (p.Arch == "amd64" || p.Arch == "arm64")
}

// goArch maps `uname -m` to Go's GOARCH.
func goArch(m string) string {
	switch m {
	case "x86_64", "amd64":
		return "amd64"
	case "aarch64", "arm64", "aarch64_be":
		return "arm64"
	}
	return m
}

// probeScript reports the host's platform, whether the install folder
// under its home can be made and written, and the checksum of the
// install file that is there (empty: none). version is checkVersion'd.
func probeScript(version string) string {
	return `printf 'os=%s\n' "$(uname -s)"
printf 'arch=%s\n' "$(uname -m)"
d="$HOME/` + binDir + `"
if [ -n "$HOME" ] && mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then echo home=ok; else echo home=no; fi
f="$d/hermesdesk-` + version + `"
if [ -f "$f" ]; then printf 'have=%s\n' "$(sha256sum < "$f" | cut -d' ' -f1)"; fi
`
}

// probe is what probeScript found.
type probe struct {
	Platform
	HomeOK bool
	Have   string // sha256 of the installed binary of this version, or ""
}

// parseProbe reads probeScript's output. Lines it does not know are
// ignored (a login banner, a shell's chatter). Pure: table-tested.
func parseProbe(out []byte) probe {
	var p probe
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok {
			continue
		}
		switch k {
		case "os":
			p.OS = strings.ToLower(v)
		case "arch":
			p.Arch = goArch(v)
		case "home":
			p.HomeOK = v == "ok"
		case "have":
			p.Have = v
		}
	}
	return p
}

// problem is what keeps the host from being used, or "".
func (p probe) problem() Problem {
	switch {
	case p.OS == "" || !p.Supported():
		return ProblemPlatform
	case !p.HomeOK:
		return ProblemNoHome
	}
	return ""
}
