package demoagent

import (
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
)

func TestReceived(t *testing.T) {
	img := acpsdk.ImageBlock("UE5H", "image/png")
	img.Image.Uri = acpsdk.Ptr("file:///w/shot.png")
	link := acpsdk.ResourceLinkBlock("x.zip", "file:///w/x.zip")
	link.ResourceLink.MimeType, link.ResourceLink.Size = acpsdk.Ptr("application/zip"), acpsdk.Ptr(2048)
	res := acpsdk.ResourceBlock(acpsdk.EmbeddedResourceResource{TextResourceContents: &acpsdk.TextResourceContents{
		Uri: "file:///w/notes%20v2.md", Text: "hello", MimeType: acpsdk.Ptr("text/markdown")}})
	cases := []struct {
		name   string
		blocks []acpsdk.ContentBlock
		want   string
	}{
		{"text only", []acpsdk.ContentBlock{acpsdk.TextBlock("hi")}, ""},
		{"one image", []acpsdk.ContentBlock{acpsdk.TextBlock("hi"), img}, "Received 1 attachment: shot.png (image/png, 3 B)"},
		{"three kinds", []acpsdk.ContentBlock{acpsdk.TextBlock("hi"), res, link, img},
			"Received 3 attachments: notes v2.md (text/markdown, 5 B), x.zip (application/zip, 2 KiB), shot.png (image/png, 3 B)"},
		{"a bare link", []acpsdk.ContentBlock{acpsdk.ResourceLinkBlock("a", "file:///a")}, "Received 1 attachment: a (file, size unknown)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := received(c.blocks); got != c.want {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
