package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Upload stores a file the window has no path for (a dropped or pasted
// one: the web view hides paths) through the core's POST /api/uploads and
// answers like Request: 201 with {path, name, size} to attach by path
// (docs/ARCHITECTURE.md §Attachments). The bytes come base64-encoded
// because the binding carries text. host "" stores them on this computer;
// a host's id sends them to that host's core through the proxy, since its
// agent reads the path there (§Remote cores, "The window").
func (d *Desktop) Upload(name, dataBase64, host string) Response {
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > service.MaxAttachmentBytes+3 {
		return Response{Status: http.StatusRequestEntityTooLarge, Body: errorBody(service.ErrUploadTooLarge)}
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return Response{Status: http.StatusBadRequest, Body: errorBody(&service.Error{Code: service.CodeBadRequest, Message: "the file's data did not arrive intact"})}
	}
	return d.Request(http.MethodPost, uploadPath(host, name), string(data))
}

// UploadFile sends a file of this computer, by its path, to host's core
// (POST /api/hosts/{host}/uploads): a drop on the Linux window gives paths
// (app/drop.go), which an agent on another host cannot read, so the bytes
// go there and the host's path is attached (docs/ARCHITECTURE.md §Remote
// cores, "The window"). Only a regular file up to the attachment limit.
func (d *Desktop) UploadFile(path, host string) Response {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return Response{Status: http.StatusBadRequest, Body: errorBody(&service.Error{Code: service.CodeBadRequest,
			Message: filepath.Base(path) + " is not a file that can be read here; attach files only"})}
	}
	if fi.Size() > service.MaxAttachmentBytes {
		return Response{Status: http.StatusRequestEntityTooLarge, Body: errorBody(service.ErrUploadTooLarge)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		d.app.shell.log().Warn("a dropped file could not be read", "path", path, "err", err)
		return Response{Status: http.StatusBadRequest, Body: errorBody(&service.Error{Code: service.CodeBadRequest,
			Message: filepath.Base(path) + " could not be read"})}
	}
	return d.Request(http.MethodPost, uploadPath(host, filepath.Base(path)), string(data))
}

// uploadPath is where an upload for host ("" this computer) is posted:
// this core's POST /api/uploads or the host's, proxied.
func uploadPath(host, name string) string {
	q := "uploads?name=" + url.QueryEscape(name)
	if host == "" {
		return "/api/" + q
	}
	return "/api/hosts/" + url.PathEscape(host) + "/" + q
}

// clipboardWait bounds the wait for the clipboard's owner to hand its image over.
const clipboardWait = 5 * time.Second

// PasteImage attaches the clipboard's image when the page's paste carried
// none (WebKitGTK shows the page only the clipboard's text): read natively
// as PNG and stored like Upload, under name, for host ("" this computer).
// 204 when the clipboard holds no image (docs/ARCHITECTURE.md §Attachments).
func (d *Desktop) PasteImage(name, host string) Response {
	ctx, cancel := context.WithTimeout(context.Background(), clipboardWait)
	defer cancel()
	png, err := clipboardImage(ctx)
	if err != nil {
		d.app.shell.log().Warn("the clipboard's image did not arrive", "err", err)
		return Response{Status: http.StatusGatewayTimeout, Body: errorBody(&service.Error{Code: service.CodeUnavailable,
			Message: "the application that copied the image did not hand it over; copy it again"})}
	}
	if len(png) == 0 {
		return Response{Status: http.StatusNoContent}
	}
	if len(png) > service.MaxAttachmentBytes {
		return Response{Status: http.StatusRequestEntityTooLarge, Body: errorBody(service.ErrUploadTooLarge)}
	}
	d.app.shell.log().Info("pasted an image from the clipboard", "bytes", len(png))
	return d.Request(http.MethodPost, uploadPath(host, name), string(png))
}

// errorBody is the API's error shape, for answers made before the API.
func errorBody(e *service.Error) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": string(e.Code), "message": e.Message}})
	return string(b)
}
