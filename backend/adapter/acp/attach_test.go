package acp

import (
	"encoding/json"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

func TestPromptBlocks(t *testing.T) {
	img := attach.File{Path: "/w/a b.png", Name: "a b.png", MIME: "image/png", Size: 3, Kind: attach.Image, Data: []byte("PNG")}
	txt := attach.File{Path: "/w/n.md", Name: "n.md", MIME: "text/markdown", Size: 2, Kind: attach.Text, Data: []byte("hi")}
	bin := attach.File{Path: "/w/x.zip", Name: "x.zip", MIME: "application/zip", Size: 9, Kind: attach.Binary, Data: []byte("PK")}
	all := acpsdk.PromptCapabilities{Image: true, EmbeddedContext: true}
	cases := []struct {
		name  string
		files []attach.File
		caps  acpsdk.PromptCapabilities
		want  string
	}{
		{"no files", nil, all, `[{"text":"look","type":"text"}]`},
		{"image, agent takes images", []attach.File{img}, all,
			`[{"text":"look","type":"text"},{"data":"UE5H","mimeType":"image/png","type":"image","uri":"file:///w/a%20b.png"}]`},
		{"image, agent takes no images", []attach.File{img}, acpsdk.PromptCapabilities{},
			`[{"text":"look","type":"text"},{"mimeType":"image/png","name":"a b.png","size":3,"type":"resource_link","uri":"file:///w/a%20b.png"}]`},
		{"text, embedded context", []attach.File{txt}, all,
			`[{"text":"look","type":"text"},{"resource":{"mimeType":"text/markdown","text":"hi","uri":"file:///w/n.md"},"type":"resource"}]`},
		{"text, no embedded context", []attach.File{txt}, acpsdk.PromptCapabilities{Image: true},
			`[{"text":"look","type":"text"},{"mimeType":"text/markdown","name":"n.md","size":2,"type":"resource_link","uri":"file:///w/n.md"}]`},
		{"binary is always a link", []attach.File{bin}, all,
			`[{"text":"look","type":"text"},{"mimeType":"application/zip","name":"x.zip","size":9,"type":"resource_link","uri":"file:///w/x.zip"}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(promptBlocks("look", c.files, c.caps))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Fatalf("got  %s\nwant %s", b, c.want)
			}
		})
	}
}
