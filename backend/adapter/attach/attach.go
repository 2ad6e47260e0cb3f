// Package attach describes the files a person attached to a message so
// each adapter can hand them to its agent the way that agent takes them
// (docs/ARCHITECTURE.md §Attachments). Files travel by path; an adapter
// that embeds a file's bytes reads them here, bounded by MaxBytes.
package attach

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxBytes bounds what is read of one attachment. The service refuses
// larger files before a run starts; this is the adapters' own guard.
const MaxBytes = 20 << 20

// Kind is how a file is offered to an agent.
type Kind string

const (
	Image  Kind = "image"  // a picture an agent with vision may look at
	PDF    Kind = "pdf"    // a document Claude reads natively
	Text   Kind = "text"   // valid UTF-8 text, embeddable as is
	Binary Kind = "binary" // anything else: offered by path only
)

// File is one attachment: where it is, what it is, and (when loaded with
// data) its bytes.
type File struct {
	Path string
	Name string
	MIME string
	Size int64
	Kind Kind
	Data []byte // nil unless loaded with data
}

// Load describes each path; with data it also reads the bytes. A file
// that cannot be read is an error naming it in plain words.
func Load(paths []string, data bool) ([]File, error) {
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		f, err := load(p, data)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func load(p string, data bool) (File, error) {
	name := filepath.Base(p)
	fh, err := os.Open(p)
	if err != nil {
		return File{}, fmt.Errorf("attachment %s cannot be read: %w", name, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return File{}, fmt.Errorf("attachment %s cannot be read: %w", name, err)
	}
	if st.Size() > MaxBytes {
		return File{}, fmt.Errorf("attachment %s is larger than %d MiB", name, MaxBytes>>20)
	}
	limit := int64(512)
	if data {
		limit = MaxBytes
	}
	b, err := io.ReadAll(io.LimitReader(fh, limit))
	if err != nil {
		return File{}, fmt.Errorf("attachment %s cannot be read: %w", name, err)
	}
	f := Describe(p, st.Size(), b)
	if data {
		f.Data = b
	}
	return f, nil
}

// Describe classifies a file from its name and its first bytes (head may
// be all of them). Pure: no file system access.
func Describe(path string, size int64, head []byte) File {
	f := File{Path: path, Name: filepath.Base(path), Size: size}
	mt := mime.TypeByExtension(strings.ToLower(filepath.Ext(path)))
	if mt == "" && len(head) > 0 {
		mt = http.DetectContentType(head)
	}
	if mt == "" {
		mt = "application/octet-stream"
	}
	base, _, _ := strings.Cut(mt, ";")
	f.MIME = strings.TrimSpace(base)
	switch {
	case strings.HasPrefix(f.MIME, "image/") && f.MIME != "image/svg+xml":
		f.Kind = Image
	case f.MIME == "application/pdf":
		f.Kind = PDF
	case isText(f.MIME, head):
		f.Kind = Text
		if !strings.HasPrefix(f.MIME, "text/") && f.MIME != "application/json" && f.MIME != "image/svg+xml" {
			f.MIME = "text/plain"
		}
	default:
		f.Kind = Binary
	}
	return f
}

func isText(mt string, head []byte) bool {
	if strings.ContainsRune(string(head), 0) {
		return false
	}
	if strings.HasPrefix(mt, "text/") || mt == "application/json" || mt == "image/svg+xml" {
		return true
	}
	// Source files with no registered type (.go, .rs…) are text when
	// their first bytes are valid UTF-8 (a rune cut at the end is fine).
	if mt != "application/octet-stream" && !strings.HasPrefix(mt, "text/plain") {
		return false
	}
	h := head
	for i := 0; i < utf8.UTFMax && len(h) > 0 && !utf8.Valid(h); i++ {
		h = h[:len(h)-1]
	}
	return len(head) > 0 && utf8.Valid(h)
}

// HumanSize is a short size for people: 512 B, 12 KiB, 3.4 MiB.
func HumanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// Mention appends the attachments' paths to a message, for agents that
// take nothing but text (a command line, hermes chat, a plain chat
// server): they can read the file themselves, or the person sees what was
// meant.
func Mention(message string, files []File) string {
	if len(files) == 0 {
		return message
	}
	var b strings.Builder
	b.WriteString(message)
	if message != "" {
		b.WriteString("\n\n")
	}
	b.WriteString("Attached files:")
	for _, f := range files {
		fmt.Fprintf(&b, "\n- %s (%s, %s)", f.Path, f.MIME, HumanSize(f.Size))
	}
	return b.String()
}

// MentionPaths is Mention for adapters that only have the paths: each is
// described without being read past its first bytes.
func MentionPaths(message string, paths []string) (string, error) {
	if len(paths) == 0 {
		return message, nil
	}
	files, err := Load(paths, false)
	if err != nil {
		return "", err
	}
	return Mention(message, files), nil
}
