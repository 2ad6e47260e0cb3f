package codex

import "github.com/hermesdesk/hermesdesk/backend/adapter/attach"

// turnInput is turn/start's input items (docs/ARCHITECTURE.md
// §Attachments): the text, then each image as a localImage item (Codex
// reads it from disk); other files are named by path in the text, which
// Codex reads with its own tools.
func turnInput(message string, files []attach.File) []any {
	var images []any
	var byPath []attach.File
	for _, f := range files {
		if f.Kind == attach.Image {
			images = append(images, map[string]any{"type": "localImage", "path": f.Path})
		} else {
			byPath = append(byPath, f)
		}
	}
	return append([]any{map[string]any{"type": "text", "text": attach.Mention(message, byPath)}}, images...)
}
