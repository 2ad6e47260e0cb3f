package cli

// What the words after `hermesdesk` mean: one table of the commands a
// person types, the help made from it, and the check of a launch's words
// before anything reaches a running app or becomes one
// (docs/ARCHITECTURE.md §Processes, "Launch").

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermesdesk/hermesdesk/platform/autostart"
)

// command is one subcommand a person can type.
type command struct {
	name    string
	summary string // one line, for `hermesdesk --help`
	run     func(e *Env, args []string, frontend fs.FS) int
}

// commands are the person's subcommands, in the order help lists them.
// `shim` and `demo-agent` are the app's own helpers, started by the app:
// main.go runs them and help does not list them.
var commands = []command{
	{"ask", "ask an agent in a project and stream its answer", func(e *Env, a []string, _ fs.FS) int { return e.Ask(a) }},
	{"runs", "list, follow, cancel or undo runs (ls, tail, cancel, undo)", func(e *Env, a []string, _ fs.FS) int { return e.Runs(a) }},
	{"schedules", "list, add, pause, resume, run or remove scheduled prompts", func(e *Env, a []string, _ fs.FS) int { return e.Schedules(a) }},
	{"export", "write a session as Markdown or as a bundle for import", func(e *Env, a []string, _ fs.FS) int { return e.Export(a) }},
	{"import", "bring a session bundle into this data folder", func(e *Env, a []string, _ fs.FS) int { return e.Import(a) }},
	{"workspaces", "list, archive or restore a project's worktrees (ls, archive, restore)", func(e *Env, a []string, _ fs.FS) int { return e.Workspaces(a) }},
	{"history", "list or import the agents' own histories (ls, import [--mirror] SOURCE)", func(e *Env, a []string, _ fs.FS) int { return e.History(a) }},
	{"hosts", "list, add or remove remote hosts reached over ssh (ls, add, rm)", func(e *Env, a []string, _ fs.FS) int { return e.Hosts(a) }},
	{"serve", "serve the app to a browser (and supervise runs without the window)", func(e *Env, a []string, f fs.FS) int { return e.Serve(a, f) }},
}

// helpWords ask for help as the first word.
var helpWords = []string{"help", "-h", "-help", "--help"}

// Main runs the command line args (os.Args[1:]) when they are a CLI
// command, help, or a mistake, and returns its exit code with handled
// true. A launch (no words, --background, one existing folder) is not
// handled: the caller becomes or reaches the core. Help and mistakes
// never touch a running app nor start one.
func Main(args []string, frontend fs.FS) (code int, handled bool) {
	return Default().Main(args, frontend)
}

// Main is Main in e.
func (e *Env) Main(args []string, frontend fs.FS) (code int, handled bool) {
	if len(args) == 0 {
		return exitOK, false
	}
	if slices.Contains(helpWords, args[0]) {
		return e.Help(args[1:], frontend), true
	}
	if c := lookup(args[0]); c != nil {
		if asksHelp(args[1:]) {
			return e.commandHelp(c, args[1:], frontend), true
		}
		return c.run(e, args[1:], frontend), true
	}
	cwd, _ := e.getwd()
	if err := checkLaunch(args, cwd); err != nil {
		e.errorf("%v", err)
		return exitUsage, true
	}
	return exitOK, false
}

// Help is `hermesdesk help [COMMAND]`: the commands with one line each,
// or one command's usage.
func (e *Env) Help(args []string, frontend fs.FS) int {
	if len(args) > 0 {
		c := lookup(args[0])
		if c == nil {
			e.errorf("there is no command %q; `hermesdesk help` lists them", args[0])
			return exitUsage
		}
		return e.commandHelp(c, []string{"--help"}, frontend)
	}
	w := e.Stdout
	fmt.Fprintf(w, "Hermes Desk: a desktop workbench for AI agent CLIs.\n\n")
	fmt.Fprintf(w, "usage: hermesdesk [--background] [FOLDER]\n")
	fmt.Fprintf(w, "       hermesdesk COMMAND [ARGS]\n\n")
	fmt.Fprintf(w, "With no command it opens the window (FOLDER becomes a project; --background starts in the tray).\n\n")
	fmt.Fprintf(w, "Commands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "help", "this list; `hermesdesk COMMAND --help` for one command")
	return exitOK
}

// commandHelp runs c with only its leading words (`runs ls`) and the help
// flag, its usage going to Stdout: help someone asked for is an answer,
// not a mistake, so it exits 0. The help flag is then the first flag the
// command parses, and every command parses its words before it reaches
// the app, so this reaches nothing (`export S -o --help` writes no file).
func (e *Env) commandHelp(c *command, args []string, frontend fs.FS) int {
	h := *e
	h.Stderr = e.Stdout
	words := []string{}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		words = append(words, a)
	}
	c.run(&h, append(words, "--help"), frontend)
	return exitOK
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// asksHelp: a help flag among the words before "--" (a message that only
// mentions --help is one word with spaces, not the flag).
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// errNotLaunch words the launch mistakes; the detail names the word.
var errNotLaunch = errors.New("see `hermesdesk --help`")

// checkLaunch accepts the words of a launch: --background and at most one
// folder that exists (relative to cwd). Anything else is a mistake said in
// the terminal, so a typo never starts the app or shows its window with
// an error in it.
func checkLaunch(args []string, cwd string) error {
	folders := 0
	for _, a := range args {
		switch {
		case a == autostart.BackgroundFlag:
			continue
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("there is no option %s; %w", a, errNotLaunch)
		}
		folders++
		if folders > 1 {
			return fmt.Errorf("open one folder at a time (%q is one too many); %w", a, errNotLaunch)
		}
		p := a
		if u, err := url.Parse(a); err == nil && u.Scheme == "file" && u.Path != "" {
			p = u.Path // a file manager's "Open with" (the .desktop file's %U)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		st, err := os.Stat(p)
		switch {
		case err != nil && filepath.Base(a) == a && !strings.Contains(a, "."):
			return fmt.Errorf("%q is neither a command nor a folder; %w", a, errNotLaunch)
		case err != nil:
			return fmt.Errorf("there is no folder %s; %w", a, errNotLaunch)
		case !st.IsDir():
			return fmt.Errorf("%s is a file, not a folder: Hermes Desk opens folders as projects; %w", a, errNotLaunch)
		}
	}
	return nil
}
