package gitcmd

import (
	"strings"
	"testing"
)

func TestTransportOf(t *testing.T) {
	for url, want := range map[string]string{
		"/srv/git/repo.git":                "file",
		"../remote.git":                    "file",
		"file:///srv/repo.git":             "file",
		"ssh://git@example.com/x.git":      "ssh",
		"git@github.com:me/x.git":          "ssh",
		"https://github.com/me/x.git":      "https",
		"HTTP://example.com/x":             "http",
		"ext::sh -c touch% /tmp/pwned":     "",
		"fd::17":                           "",
		"git://example.com/x.git":          "",
		"-oProxyCommand=x:y":               "",
		"relative-dir":                     "",
		"persistent-https://example.com/x": "",
		"github.com:me/x.git":              "ssh",
		"C:x":                              "ssh",
		"transport::https://example.com/x": "",
	} {
		if got := TransportOf(url); got != want {
			t.Errorf("%q: %q, want %q", url, got, want)
		}
	}
}

// TransportOf answers one of the four transports or "" for any URL, and
// never a transport for a URL that names a remote helper or an option.
func FuzzTransportOf(f *testing.F) {
	for _, s := range []string{"/srv/x.git", "ext::sh -c x", "git@h:x", "https://h/x", "-oProxy=x:y", "a::b", "ssh://h/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, url string) {
		got := TransportOf(url)
		switch got {
		case "", "file", "ssh", "http", "https":
		default:
			t.Fatalf("%q: %q", url, got)
		}
		if got != "" && (strings.HasPrefix(url, "-") || strings.HasPrefix(url, "ext::") || strings.HasPrefix(url, "fd::")) {
			t.Fatalf("%q opens %q", url, got)
		}
	})
}
