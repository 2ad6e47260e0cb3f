package claude

import (
	"encoding/base64"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

// claudeImages are the picture formats the Messages API takes inline.
var claudeImages = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// userContent is a stream-json user message's content (docs/ARCHITECTURE.md
// §Attachments): the plain text alone when nothing is attached (as before),
// else content blocks — images and PDFs as base64 image/document blocks,
// text files as plain-text documents, and anything else named by path in
// the text so Claude Code can read it with its own tools.
func userContent(message string, files []attach.File) any {
	if len(files) == 0 {
		return message
	}
	var blocks []map[string]any
	var byPath []attach.File
	for _, f := range files {
		switch {
		case f.Data == nil:
			byPath = append(byPath, f)
		case f.Kind == attach.Image && claudeImages[f.MIME]:
			blocks = append(blocks, map[string]any{"type": "image", "source": map[string]any{
				"type": "base64", "media_type": f.MIME, "data": base64.StdEncoding.EncodeToString(f.Data)}})
		case f.Kind == attach.PDF:
			blocks = append(blocks, map[string]any{"type": "document", "title": f.Name, "source": map[string]any{
				"type": "base64", "media_type": "application/pdf", "data": base64.StdEncoding.EncodeToString(f.Data)}})
		case f.Kind == attach.Text:
			blocks = append(blocks, map[string]any{"type": "document", "title": f.Name, "source": map[string]any{
				"type": "text", "media_type": "text/plain", "data": string(f.Data)}})
		default:
			byPath = append(byPath, f)
		}
	}
	text := attach.Mention(message, byPath)
	out := make([]map[string]any, 0, len(blocks)+1)
	if text != "" {
		out = append(out, map[string]any{"type": "text", "text": text})
	}
	return append(out, blocks...)
}
