package gitcmd

import "testing"

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
