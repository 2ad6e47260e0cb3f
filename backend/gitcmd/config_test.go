package gitcmd

import (
	"testing"
)

func TestOverridesPerName(t *testing.T) {
	keys := []string{
		"filter.lfs.clean", "filter.lfs.required", "filter.a.b=c.process", "diff.Evil.textconv",
		"merge.ours.driver", "credential.https://x.helper", "remote.origin.uploadpack",
		"protocol.ext.allow", "pager.log", "submodule.s.update",
		"core.autocrlf", "filter.lfs.clean", // a key twice, and one left alone
		"user.name", "alias.co", "diff.renames",
	}
	got := map[string]string{}
	for _, kv := range overrides(keys, []string{"diff.context=5", "filter.x.smudge=evil", "core.fsmonitor=evil", "core.hooksPath=evil"}) {
		if old, dup := got[kv[0]]; dup && old != kv[1] {
			t.Errorf("%s set twice: %q and %q", kv[0], old, kv[1])
		}
		got[kv[0]] = kv[1]
	}
	want := map[string]string{
		"filter.lfs.clean": "", "filter.lfs.required": "false", "filter.a.b=c.process": "",
		"diff.Evil.textconv": "", "merge.ours.driver": "false", "credential.https://x.helper": "",
		"remote.origin.uploadpack": "git-upload-pack", "protocol.ext.allow": "never", "pager.log": "false",
		"submodule.s.update": "none", "core.fsmonitor": "false", "core.hooksPath": devNullHooks,
		"diff.context": "5",
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (set %v), want %q", k, g, ok, v)
		}
	}
	for _, k := range []string{"core.autocrlf", "user.name", "alias.co", "diff.renames", "filter.x.smudge"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s overridden", k)
		}
	}
}

func TestRecentEnough(t *testing.T) {
	cases := map[string]bool{
		"git version 2.39.5\n":               true,
		"git version 2.32.0":                 true,
		"git version 2.31.1":                 false,
		"git version 2.20.1.windows.1":       false,
		"git version 2.45.0.windows.1":       true,
		"git version 2.39.3 (Apple Git-146)": true,
		"git version 3.0.0":                  true,
		"":                                   false,
		"git version banana":                 false,
	}
	for in, want := range cases {
		if got := recentEnough(in); got != want {
			t.Errorf("recentEnough(%q) = %v, want %v", in, got, want)
		}
	}
}

func FuzzParseKeys(f *testing.F) {
	f.Add([]byte("core.bare\nfalse\x00filter.a\nb.clean\nx\x00flag\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, k := range parseKeys(b) {
			section, sub, name := splitKey(k)
			_ = overrides([]string{k}, nil)
			if len(section)+len(sub)+len(name) > len(k) {
				t.Fatalf("splitKey(%q) = %q %q %q", k, section, sub, name)
			}
		}
	})
}
