package claude

import (
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

func TestUserContent(t *testing.T) {
	png := attach.File{Path: "/w/a.png", Name: "a.png", MIME: "image/png", Size: 3, Kind: attach.Image, Data: []byte("PNG")}
	bmp := attach.File{Path: "/w/a.bmp", Name: "a.bmp", MIME: "image/bmp", Size: 3, Kind: attach.Image, Data: []byte("BM!")}
	pdf := attach.File{Path: "/w/p.pdf", Name: "p.pdf", MIME: "application/pdf", Size: 4, Kind: attach.PDF, Data: []byte("%PDF")}
	txt := attach.File{Path: "/w/n.md", Name: "n.md", MIME: "text/markdown", Size: 2, Kind: attach.Text, Data: []byte("hi")}
	zip := attach.File{Path: "/w/x.zip", Name: "x.zip", MIME: "application/zip", Size: 2048, Kind: attach.Binary, Data: []byte("PK")}
	cases := []struct {
		name  string
		msg   string
		files []attach.File
		want  string
	}{
		{"no files stays a string", "hello", nil, `"hello"`},
		{"png is an image block", "look", []attach.File{png},
			`[{"text":"look","type":"text"},{"source":{"data":"UE5H","media_type":"image/png","type":"base64"},"type":"image"}]`},
		{"pdf is a document", "read", []attach.File{pdf},
			`[{"text":"read","type":"text"},{"source":{"data":"JVBERg==","media_type":"application/pdf","type":"base64"},"title":"p.pdf","type":"document"}]`},
		{"text is a plain-text document", "", []attach.File{txt},
			`[{"source":{"data":"hi","media_type":"text/plain","type":"text"},"title":"n.md","type":"document"}]`},
		{"other formats by path", "see", []attach.File{bmp, zip},
			`[{"text":"see\n\nAttached files:\n- /w/a.bmp (image/bmp, 3 B)\n- /w/x.zip (application/zip, 2 KiB)","type":"text"}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := json.Marshal(userContent(c.msg, c.files))
			if string(b) != c.want {
				t.Fatalf("got  %s\nwant %s", b, c.want)
			}
		})
	}
}
