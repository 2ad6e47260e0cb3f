package httpapi

import (
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// What backend/remote's proxy of a host's API (Config.Hosts) shares with
// this package, so there is one of each (docs/ARCHITECTURE.md §Remote
// cores).

// SocketTransport talks HTTP over a unix socket to a server of this user
// only (SO_PEERCRED, as the local API's clients do): a host's forwarded
// socket is reached with it.
func SocketTransport(socket string) *http.Transport { return unixTransport(socket) }

// WriteError answers in the API's error shape ({error: {code, message}}).
func WriteError(w http.ResponseWriter, status int, code service.Code, msg string) {
	writeError(w, status, code, msg)
}
