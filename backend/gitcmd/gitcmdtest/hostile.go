// Package gitcmdtest makes git repositories for tests: plain ones (Git,
// Init, Write in repo.go, the one set-up every package's tests share) and
// one that tries to run a program through every key and hook that can make
// git run one (New; docs/ARCHITECTURE.md §Security, "Git in a project").
// Only tests import it.
package gitcmdtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Hooks are the hook names git knows (githooks(5)); each gets a script in
// both the repository's hooks folder and the core.hooksPath one.
var Hooks = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite",
	"sendemail-validate", "fsmonitor-watchman", "post-index-change",
}

// Repo is a hostile repository.
type Repo struct {
	Dir    string // the work tree
	Marker string // every planted program appends its name here
	bin    string
}

// Ran returns the names of the planted programs that ran.
func (r *Repo) Ran() []string {
	b, err := os.ReadFile(r.Marker)
	if err != nil {
		return nil
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l != "" {
			names = append(names, l)
		}
	}
	sort.Strings(names)
	return names
}

// Reset forgets what ran.
func (r *Repo) Reset() { os.Remove(r.Marker) }

// New makes a repository with a first commit (a.txt, b.proc, c.inc) on
// main and a branch "other" that changes a.txt, then
// plants the hostile config, attributes and hooks; and, through t.Setenv,
// a hostile global config and GIT_* environment, as a person's shell might
// carry. Tests that call it cannot run in parallel.
func New(t *testing.T) *Repo {
	t.Helper()
	Need(t)
	root := t.TempDir()
	r := &Repo{Dir: filepath.Join(root, "work"), Marker: filepath.Join(root, "ran.txt"), bin: filepath.Join(root, "bin")}
	must(t, os.MkdirAll(r.Dir, 0o755))
	must(t, os.MkdirAll(r.bin, 0o755))
	Git(t, r.Dir, "init", "-q", "-b", "main")
	Write(t, filepath.Join(r.Dir, "a.txt"), "one\ntwo\n")
	Write(t, filepath.Join(r.Dir, "b.proc"), "process me\n")
	Write(t, filepath.Join(r.Dir, "c.inc"), "included\n")
	Git(t, r.Dir, "add", "-A")
	Git(t, r.Dir, "commit", "-qm", "start")
	Git(t, r.Dir, "checkout", "-q", "-b", "other")
	Write(t, filepath.Join(r.Dir, "a.txt"), "theirs\n")
	Git(t, r.Dir, "commit", "-qam", "theirs")
	Git(t, r.Dir, "checkout", "-q", "main")
	r.arm(t)
	return r
}

// prog writes a program that records name and, for a filter, passes its
// input through; it returns the program's path.
func (r *Repo) prog(t *testing.T, name string, filter bool) string {
	p := filepath.Join(r.bin, name)
	body := fmt.Sprintf("#!/bin/sh\necho %s >> '%s'\n", name, r.Marker)
	if filter {
		body += "exec cat\n"
	}
	must(t, os.WriteFile(p, []byte(body), 0o755))
	return p
}

func (r *Repo) arm(t *testing.T) {
	gitDir := filepath.Join(r.Dir, ".git")
	hooksPath := filepath.Join(r.bin, "hooks")
	must(t, os.MkdirAll(hooksPath, 0o755))
	for _, h := range Hooks {
		p := r.prog(t, "hook-"+h, false)
		for _, dir := range []string{hooksPath, filepath.Join(gitDir, "hooks")} {
			must(t, os.MkdirAll(dir, 0o755))
			b, _ := os.ReadFile(p)
			must(t, os.WriteFile(filepath.Join(dir, h), b, 0o755))
		}
	}
	p := func(name string) string { return r.prog(t, name, false) }
	f := func(name string) string { return r.prog(t, name, true) }
	config := fmt.Sprintf(`[core]
	fsmonitor = %s
	hooksPath = %s
	pager = %s
	editor = %s
	askPass = %s
	sshCommand = %s
	gitProxy = %s
	alternateRefsCommand = %s
[sequence]
	editor = %s
[credential]
	helper = !%s
[credential "https://example.com"]
	helper = !%s
[diff]
	external = %s
[diff "evil"]
	command = %s
	textconv = %s
[filter "evil"]
	clean = %s
	smudge = %s
	required = true
[filter "evil.proc"]
	process = %s
[merge "evil"]
	driver = %s %%O %%A %%B
[difftool "evil"]
	cmd = %s
[mergetool "evil"]
	cmd = %s
[gpg]
	program = %s
[gpg "ssh"]
	program = %s
[commit]
	gpgSign = true
[log]
	showSignature = true
[pager]
	log = %s
	diff = %s
[uploadpack]
	packObjectsHook = %s
[protocol "ext"]
	allow = always
[protocol]
	allow = always
[remote "origin"]
	url = ext::%s %%S
	uploadpack = %s
	receivepack = %s
[submodule "sub"]
	update = !%s
[user]
	name = t
	email = t@e
[include]
	path = extra.config
`, p("fsmonitor"), hooksPath, p("pager"), p("editor"), p("askpass"), p("sshcommand"), p("gitproxy"),
		p("alternaterefscommand"), p("sequence-editor"), p("credential-helper"), p("credential-url-helper"),
		p("diff-external"), p("diff-command"), p("diff-textconv"), f("filter-clean"), f("filter-smudge"),
		p("filter-process"), p("merge-driver"), p("difftool"), p("mergetool"), p("gpg"), p("gpg-ssh"),
		p("pager-log"), p("pager-diff"), p("packobjectshook"), p("ext-transport"), p("uploadpack"),
		p("receivepack"), p("submodule-update"))
	must(t, os.WriteFile(filepath.Join(gitDir, "config"), []byte(
		"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"+config), 0o644))
	// An included file names its own filter: only a reading of the
	// effective config finds it.
	must(t, os.WriteFile(filepath.Join(gitDir, "extra.config"), []byte(fmt.Sprintf(
		"[filter \"inc\"]\n\tclean = %s\n\tsmudge = %s\n\trequired = true\n", f("included-filter-clean"), f("included-filter-smudge"))), 0o644))
	attrs := "* filter=evil diff=evil merge=evil\n*.proc filter=evil.proc\n*.inc filter=inc\n"
	Write(t, filepath.Join(r.Dir, ".gitattributes"), attrs)
	Write(t, filepath.Join(gitDir, "info", "attributes"), attrs)

	// The person's own global config and environment, as hostile.
	home := filepath.Join(r.bin, "home")
	global := fmt.Sprintf("[core]\n\tfsmonitor = %s\n\thooksPath = %s\n[filter \"global\"]\n\tclean = %s\n", p("global-fsmonitor"), hooksPath, f("global-filter-clean"))
	Write(t, filepath.Join(home, ".gitconfig"), global)
	Write(t, filepath.Join(home, ".config", "git", "config"), global)
	Write(t, filepath.Join(home, ".config", "git", "attributes"), "* filter=global\n")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_EXTERNAL_DIFF", p("env-external-diff"))
	t.Setenv("GIT_PAGER", p("env-pager"))
	t.Setenv("PAGER", p("env-pager2"))
	t.Setenv("GIT_EDITOR", p("env-editor"))
	t.Setenv("GIT_SSH_COMMAND", p("env-ssh"))
	t.Setenv("GIT_SSH", p("env-ssh2"))
	t.Setenv("GIT_ASKPASS", p("env-askpass"))
	t.Setenv("SSH_ASKPASS", p("env-ssh-askpass"))
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='"+p("env-config-parameters")+"'")
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
	t.Setenv("GIT_CONFIG_VALUE_0", p("env-config-count"))
	t.Setenv("GIT_ALLOW_PROTOCOL", "ext:file:ssh")
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
