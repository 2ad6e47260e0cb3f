package core

import (
	"encoding/json"
	"net/http"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/version"
	"github.com/hermesdesk/hermesdesk/core/coreapi"
)

// maxControlBody bounds a request on the core's socket; they are tiny.
const maxControlBody = 64 << 10

// routes is the core's socket: only this user reaches it (the listener
// checks the peer), so there is no token.
func (k *Core) routes() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET "+coreapi.PathInfo, func(w http.ResponseWriter, r *http.Request) {
		on, _ := k.autostartOn()
		k.mu.Lock()
		info := coreapi.Info{Version: version.Version, Commit: version.Commit, Pid: os.Getpid(), DataDir: k.dataDir,
			TrayAvailable: k.trayAvail, AutostartSupported: k.am != nil, Autostart: on}
		k.mu.Unlock()
		info.WindowPid = k.windows.pid()
		writeJSON(w, http.StatusOK, info)
	})
	m.HandleFunc("POST "+coreapi.PathShow, func(w http.ResponseWriter, r *http.Request) {
		var l coreapi.Launch
		if !decodeBody(w, r, &l) {
			return
		}
		k.log.Info("second instance", "args", l.Args, "cwd", l.Cwd)
		k.showWindow(l)
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	m.HandleFunc("POST "+coreapi.PathHandover, func(w http.ResponseWriter, r *http.Request) {
		var req coreapi.HandoverRequest
		if !decodeBody(w, r, &req) {
			return
		}
		if !coreapi.Newer(req.Version, version.Version) {
			writeJSON(w, http.StatusConflict, map[string]string{"error": "not a newer version"})
			return
		}
		writeJSON(w, http.StatusOK, coreapi.HandoverResponse{Pid: os.Getpid(), WindowPid: k.windows.pid()})
		go k.stepDown(req.Version)
	})
	m.HandleFunc("POST "+coreapi.PathQuit, func(w http.ResponseWriter, r *http.Request) {
		var req coreapi.QuitRequest
		if r.ContentLength != 0 && !decodeBody(w, r, &req) {
			return // an empty body (an older window) keeps the runs
		}
		if req.Runs != "" && req.Runs != coreapi.QuitKeepRuns && req.Runs != coreapi.QuitStopRuns {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "runs must be \"keep\" or \"stop\""})
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
		go k.quitWithRuns("the window", req.Runs == coreapi.QuitStopRuns)
	})
	m.HandleFunc("GET "+coreapi.PathAttach, k.windows.serveAttach)
	m.HandleFunc("POST "+coreapi.PathRetire, func(w http.ResponseWriter, r *http.Request) {
		var req coreapi.RetireRequest
		if !decodeBody(w, r, &req) {
			return
		}
		if !k.windows.retire(req) {
			writeJSON(w, http.StatusConflict, map[string]string{"error": "a show is on its way"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	m.HandleFunc("POST "+coreapi.PathAutostart, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Enabled bool `json:"enabled"`
		}
		if !decodeBody(w, r, &req) {
			return
		}
		on, err := k.setAutostart(req.Enabled)
		out := map[string]any{"enabled": on}
		if err != nil {
			out["error"] = err.Error()
		}
		writeJSON(w, http.StatusOK, out)
	})
	return m
}

func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxControlBody)).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "the request is not valid JSON"})
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
