package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

const serveUsage = "hermesdesk serve [--addr 127.0.0.1:8765] [--allow-remote] [--host NAME]... [--frontend DIR] | serve --socket-only [--detach]"

type hostList []string

func (h *hostList) String() string     { return strings.Join(*h, ",") }
func (h *hostList) Set(v string) error { *h = append(*h, v); return nil }

// Serve runs the API and the web app over TCP until Ctrl-C. It becomes
// the data dir's supervisor; if the desktop app (or another serve)
// already is, it serves as a front for that one's local API until that
// one stops, and then supervises in its place.
func (e *Env) Serve(args []string, frontend fs.FS) int {
	fset := newFlags("serve", e, serveUsage)
	addr := fset.String("addr", "127.0.0.1:8765", "address to listen on")
	allowRemote := fset.Bool("allow-remote", false, "allow a non-loopback address (anyone with the token then controls agents on this machine)")
	var hosts hostList
	fset.Var(&hosts, "host", "a host name browsers may use to reach this server (repeatable; needed for names other than localhost)")
	feDir := fset.String("frontend", "", "serve the web app from this folder instead of the built-in one")
	socketOnly := fset.Bool("socket-only", false, "no TCP: serve the API on the data dir's local socket only (a remote host's core, docs/ARCHITECTURE.md §Hosts)")
	detach := fset.Bool("detach", false, "with --socket-only: run in the background, print socket=PATH once it answers")
	_, ok := parseFit(fset, args, none)
	if !ok {
		return exitUsage
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		e.errorf("bad --addr %q: %v", *addr, err)
		return exitUsage
	}
	loopback := isLoopback(host)
	if !loopback && !*allowRemote {
		e.errorf("refusing to listen on %s: it is not a loopback address. Pass --allow-remote to expose Hermes Desk to your network.", *addr)
		return exitUsage
	}
	if *feDir != "" {
		if st, err := os.Stat(*feDir); err != nil || !st.IsDir() {
			e.errorf("--frontend %s is not a folder", *feDir)
			return exitUsage
		}
		if frontend, err = httpapi.DirFrontend(*feDir); err != nil {
			e.errorf("%v", err)
			return exitUsage
		}
	}
	if frontend != nil {
		if _, err := fs.Stat(frontend, "index.html"); err != nil {
			frontend = nil // a build without the web app: serve the API only
		}
	}

	dataDir, err := e.dataDir()
	if err == nil {
		err = paths.Ensure(dataDir)
	}
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	if *socketOnly {
		return e.serveSocketOnly(dataDir, *detach)
	}
	token, err := httpapi.LoadOrCreateToken(dataDir)
	if err != nil {
		e.errorf("%v", err)
		return exitFail
	}
	ctx, cancel := context.WithCancel(e.ctx())
	defer cancel()
	sigs, stop := e.signals()
	defer stop()
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()

	log := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	sock := httpapi.SocketPath(dataDir)
	// serve supervises the runs (and calls the person back: no window to
	// open, a click only dismisses) or fronts the process that does, and
	// takes over when that one goes away (docs/ARCHITECTURE.md §Processes).
	// answered closes when whoever supervises the data dir answers: its
	// watch bus delivered (this process's own, or the holder's through the
	// proxy), or this process took over. A holder that is still starting
	// (two serves started together) is waited for on that event.
	answered := make(chan struct{})
	var once sync.Once
	answer := func() { once.Do(func() { close(answered) }) }
	api, err := apihost.Open(ctx, apihost.Options{
		DataDir: dataDir, Executable: e.Executable, Log: log,
		API:   httpapi.Config{Token: token, AllowedHosts: hosts, Frontend: frontend, Log: log},
		Watch: func(run.WatchMessage) { answer() },
		TookOver: func() {
			answer()
			fmt.Fprintf(e.Stderr, "The Hermes Desk process that supervised this data folder stopped; serve supervises it now (running agents carry on).\n")
		},
	})
	if err != nil {
		e.errorf("cannot start: %v", err)
		return exitFail
	}
	defer api.Close()
	fronting := !api.Supervising()
	if fronting {
		// Another process holds the data dir. One started together with
		// this one may still be opening it: wait for it to answer (or to
		// go, and this process to take its place) before saying anything.
		select {
		case <-answered:
		case <-ctx.Done():
			return exitOK
		case <-time.After(holderWait):
			if !api.Supervising() {
				e.errorf("another Hermes Desk holds the data folder %s — another `hermesdesk serve` or the app — and its local API (%s) has not answered for %s. Use that one (a serve printed its login link), or stop it and try again.", dataDir, sock, holderWait)
				return exitFail
			}
		}
		if !api.Supervising() {
			fmt.Fprintf(e.Stderr, "Hermes Desk is already running for this data folder (the app or another `hermesdesk serve`); serving it through its local API (%s) until it stops, then in its place.\n", sock)
		}
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		switch {
		case fronting && errors.Is(err, syscall.EADDRINUSE):
			e.errorf("another `hermesdesk serve` already serves the data folder %s, and %s is taken: use its login link, or pass another --addr.", dataDir, *addr)
			return exitFail
		case errors.Is(err, syscall.EADDRINUSE):
			e.errorf("%s is taken (by another `hermesdesk serve` or another program): stop it, or pass another --addr.", *addr)
			return exitFail
		}
		e.errorf("cannot listen on %s: %v", *addr, err)
		return exitFail
	}
	url := "http://" + displayAddr(ln.Addr()) + "/?token=" + token
	if !loopback {
		fmt.Fprintf(e.Stderr, "WARNING: listening on %s, beyond this machine. Anyone who can reach it and has the token can run agents as you. There is no TLS: use it only on a network you trust.\n", ln.Addr())
	}
	// Deleting serve.token revokes the token: a new one is made and only
	// it is accepted from then on. The watch is in place before the link
	// is printed, so a deletion right after it is not missed.
	httpapi.WatchToken(ctx, dataDir, token, func(tok string) {
		api.SetToken(tok)
		if tok == "" {
			fmt.Fprintf(e.Stderr, "The token file %s is damaged; no token is accepted until it is deleted.\n", filepath.Join(dataDir, httpapi.TokenFile))
			return
		}
		fmt.Fprintf(e.Stdout, "\nThe token changed (serve.token was deleted or replaced); the old one no longer works.\n\n  Open: http://%s/?token=%s\n\n", displayAddr(ln.Addr()), tok)
	}, log)
	fmt.Fprintf(e.Stdout, "Hermes Desk is serving %s\n\n  Open: %s\n\nThe link logs a browser in; keep it private. Press Ctrl-C to stop (running agents go on).\n", dataDir, url)
	if e.Ready != nil {
		e.Ready(url)
	}
	if err := httpapi.ServeTCP(ctx, ln, api); err != nil && !errors.Is(err, http.ErrServerClosed) {
		e.errorf("server: %v", err)
		return exitFail
	}
	return exitOK
}

// holderWait bounds how long serve waits for the process holding the data
// dir to answer (a var for tests).
var holderWait = 15 * time.Second

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// displayAddr turns a wildcard listen address into one a browser on this
// machine can open.
func displayAddr(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if ta.IP == nil || ta.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(ta.Port))
	}
	return ta.String()
}
