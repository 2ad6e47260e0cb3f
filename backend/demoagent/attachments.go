package demoagent

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

// received describes the attachments of a prompt, one "name (type, size)"
// each, so a test (or a person trying the app) sees exactly what reached
// the agent: "Received 2 attachments: a.png (image/png, 3 B), …". Empty
// when nothing was attached.
func received(blocks []acpsdk.ContentBlock) string {
	var items []string
	for _, b := range blocks {
		switch {
		case b.Image != nil:
			n := base64.StdEncoding.DecodedLen(len(b.Image.Data)) - strings.Count(b.Image.Data, "=")
			name := "image"
			if b.Image.Uri != nil {
				name = uriName(*b.Image.Uri)
			}
			items = append(items, fmt.Sprintf("%s (%s, %s)", name, b.Image.MimeType, attach.HumanSize(int64(n))))
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			items = append(items, fmt.Sprintf("%s (%s, %s)", uriName(r.Uri), deref(r.MimeType, "text"), attach.HumanSize(int64(len(r.Text)))))
		case b.Resource != nil && b.Resource.Resource.BlobResourceContents != nil:
			r := b.Resource.Resource.BlobResourceContents
			items = append(items, fmt.Sprintf("%s (%s, %s)", uriName(r.Uri), deref(r.MimeType, "binary"), attach.HumanSize(int64(base64.StdEncoding.DecodedLen(len(r.Blob))))))
		case b.ResourceLink != nil:
			l := b.ResourceLink
			size := "size unknown"
			if l.Size != nil {
				size = attach.HumanSize(int64(*l.Size))
			}
			items = append(items, fmt.Sprintf("%s (%s, %s)", l.Name, deref(l.MimeType, "file"), size))
		}
	}
	switch len(items) {
	case 0:
		return ""
	case 1:
		return "Received 1 attachment: " + items[0]
	}
	return fmt.Sprintf("Received %d attachments: %s", len(items), strings.Join(items, ", "))
}

func uriName(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		return path.Base(u.Path)
	}
	return uri
}

func deref(s *string, def string) string {
	if s == nil || *s == "" {
		return def
	}
	return *s
}
