package app

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Upload stores a file the window has no path for (a dropped or pasted
// one: the web view hides paths) through the core's POST /api/uploads and
// answers like Request: 201 with {path, name, size} to attach by path
// (docs/ARCHITECTURE.md §Attachments). The bytes come base64-encoded
// because the binding carries text.
func (d *Desktop) Upload(name, dataBase64 string) Response {
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > service.MaxAttachmentBytes+3 {
		return Response{Status: http.StatusRequestEntityTooLarge, Body: errorBody(service.ErrUploadTooLarge)}
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return Response{Status: http.StatusBadRequest, Body: errorBody(&service.Error{Code: service.CodeBadRequest, Message: "the file's data did not arrive intact"})}
	}
	return d.Request(http.MethodPost, "/api/uploads?name="+url.QueryEscape(name), string(data))
}

// errorBody is the API's error shape, for answers made before the API.
func errorBody(e *service.Error) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": string(e.Code), "message": e.Message}})
	return string(b)
}
