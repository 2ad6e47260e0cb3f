package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// errorBody is every error response: {"error":{"code","message"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    service.Code `json:"code"`
	Message string       `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, service.CodeInternal, "cannot encode the response")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, code service.Code, msg string) {
	b, _ := json.Marshal(errorBody{Error: errorDetail{Code: code, Message: msg}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// statusOf maps a service error code to its HTTP status.
func statusOf(c service.Code) int {
	switch c {
	case service.CodeBadRequest:
		return http.StatusBadRequest
	case service.CodeNotFound:
		return http.StatusNotFound
	case service.CodeConflict, service.CodeFolderMissing:
		return http.StatusConflict
	case service.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case service.CodeUnavailable:
		return http.StatusServiceUnavailable
	case service.CodeTooSlow:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// fail writes a service error: its code and safe message, never details.
func fail(w http.ResponseWriter, err error) {
	c := service.CodeOf(err)
	writeError(w, statusOf(c), c, service.MessageOf(err))
}

// decode reads one JSON object from the body into v: at most MaxBodyBytes
// (413 beyond), no unknown trailing data, application/json if a type is
// given. It writes the error response itself and reports false.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, service.CodeBadRequest, "send JSON (Content-Type: application/json)")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			writeError(w, http.StatusRequestEntityTooLarge, service.CodeTooLarge, "request body is larger than 1 MiB")
		case isTimeout(err):
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestTimeout, service.CodeBadRequest, "the request body took too long to arrive")
		case errors.Is(err, io.EOF):
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "request body is empty; send a JSON object")
		default:
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "malformed JSON: "+jsonProblem(err))
		}
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, service.CodeTooLarge, "request body is larger than 1 MiB")
		} else {
			writeError(w, http.StatusBadRequest, service.CodeBadRequest, "malformed JSON: unexpected data after the object")
		}
		return false
	}
	return true
}

// jsonProblem describes a decode error without echoing the input.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "syntax error"
	case errors.As(err, &typ):
		if typ.Field != "" {
			return "field " + typ.Field + " has the wrong type"
		}
		return "wrong type"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated"
	}
	return "cannot parse"
}

// decodeOptional is decode for controls whose body may be empty.
func decodeOptional(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.ContentLength == 0 && r.Header.Get("Transfer-Encoding") == "" {
		return true
	}
	return decode(w, r, v)
}
