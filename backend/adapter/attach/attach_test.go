package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	cases := []struct {
		path string
		head []byte
		kind Kind
		mime string
	}{
		{"/w/shot.png", png, Image, "image/png"},
		{"/w/photo.JPG", []byte{0xff, 0xd8, 0xff}, Image, "image/jpeg"},
		{"/w/noext", png, Image, "image/png"},
		{"/w/paper.pdf", []byte("%PDF-1.7"), PDF, "application/pdf"},
		{"/w/notes.md", []byte("# hi"), Text, "text/markdown"},
		{"/w/main.go", []byte("package main\n"), Text, "text/"}, // text/plain or text/x-go, by the system's table
		{"/w/data.json", []byte(`{"a":1}`), Text, "application/json"},
		{"/w/blob.bin", []byte{0, 1, 2, 3}, Binary, "application/octet-stream"},
		{"/w/logo.svg", []byte("<svg/>"), Text, "image/svg+xml"},
		{"/w/archive.zip", []byte("PK\x03\x04"), Binary, "application/zip"},
		{"/w/empty.txt", nil, Text, "text/plain"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			f := Describe(c.path, int64(len(c.head)), c.head)
			if f.Kind != c.kind || (f.MIME != c.mime && !(strings.HasSuffix(c.mime, "/") && strings.HasPrefix(f.MIME, c.mime))) {
				t.Fatalf("Describe(%s) = %s %s, want %s %s", c.path, f.Kind, f.MIME, c.kind, c.mime)
			}
			if f.Name != filepath.Base(c.path) {
				t.Fatalf("name %q", f.Name)
			}
		})
	}
}

func TestMention(t *testing.T) {
	files := []File{{Path: "/w/a.png", Name: "a.png", MIME: "image/png", Size: 2048}}
	cases := []struct{ msg, want string }{
		{"look", "look\n\nAttached files:\n- /w/a.png (image/png, 2 KiB)"},
		{"", "Attached files:\n- /w/a.png (image/png, 2 KiB)"},
	}
	for _, c := range cases {
		if got := Mention(c.msg, files); got != c.want {
			t.Errorf("Mention(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	if got := Mention("plain", nil); got != "plain" {
		t.Errorf("no files changed the message: %q", got)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n.txt")
	if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	fs, err := Load([]string{p}, true)
	if err != nil || len(fs) != 1 || string(fs[0].Data) != "hello" || fs[0].Size != 5 {
		t.Fatalf("Load = %+v, %v", fs, err)
	}
	if fs, _ := Load([]string{p}, false); fs[0].Data != nil {
		t.Fatal("data read without asking")
	}
	_, err = Load([]string{filepath.Join(dir, "gone.txt")}, false)
	if err == nil || !strings.Contains(err.Error(), "gone.txt cannot be read") {
		t.Fatalf("missing file: %v", err)
	}
	big := filepath.Join(dir, "big.bin")
	fh, _ := os.Create(big)
	fh.Truncate(MaxBytes + 1)
	fh.Close()
	if _, err := Load([]string{big}, true); err == nil || !strings.Contains(err.Error(), "larger than 20 MiB") {
		t.Fatalf("big file: %v", err)
	}
}
