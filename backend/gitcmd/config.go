package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
)

// fixed are the overrides every command gets: each key names a program git
// could run, or a behaviour that would start one, and its value here runs
// nothing (docs/ARCHITECTURE.md §Security, "Git in a project").
var fixed = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", devNullHooks},
	{"core.pager", "cat"},
	{"core.editor", ":"},
	{"sequence.editor", ":"},
	{"core.askPass", ""},
	// An empty value clears the list of credential helpers.
	{"credential.helper", ""},
	{"core.sshCommand", "false"},
	{"core.gitProxy", "none"},
	{"core.alternateRefsCommand", ""},
	{"uploadpack.packObjectsHook", ""},
	{"diff.external", ""},
	{"gpg.program", "false"},
	{"gpg.openpgp.program", "false"},
	{"gpg.x509.program", "false"},
	{"gpg.ssh.program", "false"},
	{"gpg.ssh.defaultKeyCommand", ""},
	{"commit.gpgSign", "false"},
	{"tag.gpgSign", "false"},
	{"push.gpgSign", "false"},
	{"log.showSignature", "false"},
	{"merge.verifySignatures", "false"},
	{"protocol.allow", "never"},
	{"color.ui", "false"},
	// No housekeeping in the person's repository on our behalf.
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
}

// devNullHooks is a hooks folder that holds nothing: git looks for
// <it>/<hook> and finds no file.
const devNullHooks = "/dev/null/no-hooks"

// perName says, for a key the repository's config defines under a name of
// its own (filter.<x>.clean), what value neutralises it; "" + false means
// leave it.
func perName(section, name string) (string, bool) {
	switch section + "." + name {
	case "filter.clean", "filter.smudge", "filter.process":
		return "", true // an empty command is no filter
	case "filter.required":
		return "false", true // or a filter with no command fails every add
	case "diff.command", "diff.textconv":
		return "", true // and the diff family gets --no-ext-diff --no-textconv
	case "merge.driver", "difftool.cmd", "mergetool.cmd", "gpg.program":
		return "false", true // a merge through it conflicts instead of running it
	case "credential.helper":
		return "", true
	case "remote.uploadpack":
		return "git-upload-pack", true
	case "remote.receivepack":
		return "git-receive-pack", true
	case "protocol.allow":
		return "never", true
	case "submodule.update":
		return "none", true
	}
	if section == "pager" { // pager.<cmd>: a command's own pager
		return "false", true
	}
	return "", false
}

// overrides returns the safe overrides for a repository whose config
// defines keys, then extra (the caller's own, which cannot change a safe
// key), in git's key=value form.
func overrides(keys []string, extra []string) [][2]string {
	out := append([][2]string(nil), fixed...)
	safe := map[string]bool{}
	for _, kv := range fixed {
		safe[asciiLower(kv[0])] = true
	}
	seen := map[string]bool{}
	for _, k := range keys {
		section, sub, name := splitKey(k)
		if !isPerNameKey(section, sub, name) || seen[k] {
			continue
		}
		v, _ := perName(section, name)
		seen[k] = true
		safe[asciiLower(k)] = true
		out = append(out, [2]string{k, v})
	}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		if section, sub, name := splitKey(k); safe[asciiLower(k)] || isPerNameKey(section, sub, name) {
			// A caller cannot switch a filter or a driver back on.
			continue
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// isPerNameKey: a key of a named thing (filter.<x>.clean, pager.<cmd>)
// that perName neutralises.
func isPerNameKey(section, sub, name string) bool {
	_, ok := perName(section, name)
	return ok && (sub != "" || section == "pager")
}

// splitKey cuts section.subsection.name (the subsection may hold dots);
// section and name come lower-cased, as git compares them (ASCII only).
func splitKey(k string) (section, sub, name string) {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return asciiLower(k), "", ""
	}
	section, name = asciiLower(k[:first]), asciiLower(k[last+1:])
	if first < last {
		sub = k[first+1 : last]
	}
	return section, sub, name
}

// readKeys reads the keys the config git would read in dir defines, as
// `git config -z --list` prints them. Reading config runs nothing.
func readKeys(ctx context.Context, dir string, env []string) ([]string, error) {
	out, err := readConfig(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	return parseKeys(out), nil
}

// readConfig runs `git config -z --list` (with more flags).
func readConfig(ctx context.Context, dir string, env []string, flags ...string) ([]byte, error) {
	// The fixed overrides apply to this read too (nothing in it would use
	// them; they cost nothing).
	configReads.Add(1)
	args := append([]string{"config", "-z", "--list"}, flags...)
	out, err := run(ctx, dir, append(env, configEnv(fixed)...), nil, args, 0)
	if err != nil {
		return nil, fmt.Errorf("gitcmd: read the repository's git settings: %w", err)
	}
	return out, nil
}

// configReads counts the config readings (tests check the cache is used).
var configReads atomic.Int64

// parseKeys reads `git config -z --list`: entries end with NUL, the key is
// cut from its value by the first newline (a key alone means "true").
func parseKeys(out []byte) []string {
	var keys []string
	for _, entry := range bytes.Split(out, []byte{0}) {
		if len(entry) == 0 {
			continue
		}
		k, _, _ := bytes.Cut(entry, []byte{'\n'})
		keys = append(keys, string(k))
	}
	return keys
}

// include is an include.path or includeIf.<condition>.path entry and the
// file that holds it.
type include struct{ origin, path string }

// parseOriginKeys reads `git config -z --list --show-origin`: each entry
// is its origin ("file:<path>", "command line:") then key and value, each
// ending with NUL. It returns the keys, and every include with the file
// it is in; ok is false when an include cannot be resolved to one file
// (not from a file, "~user/", "%(prefix)/"), and the reading cannot then
// be reused.
func parseOriginKeys(out []byte) (keys []string, includes []include, ok bool) {
	fields := bytes.Split(out, []byte{0})
	ok = true
	for i := 0; i+1 < len(fields); i += 2 {
		origin, entry := string(fields[i]), fields[i+1]
		if len(entry) == 0 {
			continue
		}
		k, v, _ := bytes.Cut(entry, []byte{'\n'})
		keys = append(keys, string(k))
		section, sub, name := splitKey(string(k))
		if name != "path" || !(section == "include" && sub == "" || section == "includeif" && sub != "") {
			continue
		}
		file, fromFile := strings.CutPrefix(origin, "file:")
		p := string(v)
		if !fromFile || p == "" || strings.HasPrefix(p, "%(") || strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "~/") {
			ok = false
			continue
		}
		includes = append(includes, include{origin: file, path: p})
	}
	return keys, includes, ok
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
