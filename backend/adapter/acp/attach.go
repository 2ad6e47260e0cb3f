package acp

import (
	"encoding/base64"
	"net/url"
	"path/filepath"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

// promptBlocks is the user's message plus one content block per
// attachment, the richest the agent advertised (docs/ARCHITECTURE.md
// §Attachments): an image block when it takes images, the text embedded
// as a resource when it takes embedded context, else a resource link
// (which every ACP agent must accept) naming the file by URI.
func promptBlocks(message string, files []attach.File, caps acpsdk.PromptCapabilities) []acpsdk.ContentBlock {
	blocks := []acpsdk.ContentBlock{acpsdk.TextBlock(message)}
	for _, f := range files {
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(f.Path)}).String()
		switch {
		case f.Kind == attach.Image && caps.Image && f.Data != nil:
			b := acpsdk.ImageBlock(base64.StdEncoding.EncodeToString(f.Data), f.MIME)
			b.Image.Uri = &uri
			blocks = append(blocks, b)
		case f.Kind == attach.Text && caps.EmbeddedContext && f.Data != nil:
			blocks = append(blocks, acpsdk.ResourceBlock(acpsdk.EmbeddedResourceResource{
				TextResourceContents: &acpsdk.TextResourceContents{Uri: uri, Text: string(f.Data), MimeType: acpsdk.Ptr(f.MIME)},
			}))
		default:
			b := acpsdk.ResourceLinkBlock(f.Name, uri)
			b.ResourceLink.MimeType = acpsdk.Ptr(f.MIME)
			b.ResourceLink.Size = acpsdk.Ptr(int(f.Size))
			blocks = append(blocks, b)
		}
	}
	return blocks
}
