package codex

import (
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
)

func TestTurnInput(t *testing.T) {
	img := attach.File{Path: "/w/a.png", Name: "a.png", MIME: "image/png", Size: 3, Kind: attach.Image}
	txt := attach.File{Path: "/w/n.md", Name: "n.md", MIME: "text/markdown", Size: 2, Kind: attach.Text}
	cases := []struct {
		name  string
		files []attach.File
		want  string
	}{
		{"text only", nil, `[{"text":"go","type":"text"}]`},
		{"image is a localImage item", []attach.File{img}, `[{"text":"go","type":"text"},{"path":"/w/a.png","type":"localImage"}]`},
		{"a file is named in the text", []attach.File{txt, img},
			`[{"text":"go\n\nAttached files:\n- /w/n.md (text/markdown, 2 B)","type":"text"},{"path":"/w/a.png","type":"localImage"}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := json.Marshal(turnInput("go", c.files))
			if string(b) != c.want {
				t.Fatalf("got  %s\nwant %s", b, c.want)
			}
		})
	}
}
