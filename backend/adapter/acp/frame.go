package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// frameKind classifies one line from the agent.
type frameKind int

const (
	frameRequest      frameKind = iota + 1 // method + id: the agent asks us
	frameNotification                      // method, no id
	frameResponse                          // id + result or error: answers our call
)

// frame is one decoded JSON-RPC 2.0 message.
type frame struct {
	Kind   frameKind
	ID     json.RawMessage // requests: echoed back verbatim
	RespID int64           // responses: our numeric id
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *RPCError
}

// RPCError is a JSON-RPC error object, from the agent or for it.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	if len(e.Data) > 0 && !bytes.Equal(e.Data, []byte("null")) {
		return fmt.Sprintf("%s (code %d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// JSON-RPC error codes we send.
const (
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
)

var errMalformed = errors.New("malformed frame")

// parseFrame decodes and classifies one line. It is pure and total: any
// input yields a frame or an error wrapping errMalformed, never a panic.
func parseFrame(line []byte) (frame, error) {
	var raw struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(line, &raw); err != nil {
		return frame{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if raw.JSONRPC != "2.0" {
		return frame{}, fmt.Errorf("%w: jsonrpc %q", errMalformed, raw.JSONRPC)
	}
	hasID := len(raw.ID) > 0 && !bytes.Equal(raw.ID, []byte("null"))
	switch {
	case raw.Method != nil && *raw.Method != "":
		if len(raw.Params) > 0 && raw.Params[0] != '{' && raw.Params[0] != '[' && !bytes.Equal(raw.Params, []byte("null")) {
			return frame{}, fmt.Errorf("%w: params of %s is not structured", errMalformed, *raw.Method)
		}
		f := frame{Method: *raw.Method, Params: raw.Params}
		if hasID {
			f.Kind, f.ID = frameRequest, raw.ID
		} else {
			f.Kind = frameNotification
		}
		return f, nil
	case hasID && (raw.Result != nil || raw.Error != nil):
		var id int64
		if err := json.Unmarshal(raw.ID, &id); err != nil {
			return frame{}, fmt.Errorf("%w: response id %s is not ours", errMalformed, raw.ID)
		}
		return frame{Kind: frameResponse, RespID: id, Result: raw.Result, Error: raw.Error}, nil
	}
	return frame{}, fmt.Errorf("%w: neither request, notification nor response", errMalformed)
}
