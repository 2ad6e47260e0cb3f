package review

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestMessage(t *testing.T) {
	for _, c := range []struct {
		name     string
		comments []run.ReviewComment
		want     string
	}{
		{"one on a new line", []run.ReviewComment{{Path: "api/server.go", Side: run.SideNew, Line: 12, Quote: "return nil\n", Text: " handle the error \n"}},
			MessageHeader + " (1):\n\n1. api/server.go:12\n> return nil\nhandle the error\n\nPlease address each comment."},
		{"an old line, two quoted lines, no quote", []run.ReviewComment{
			{Path: "a.go", Side: run.SideOld, Line: 3, Quote: "x := 1\ny := 2", Text: "keep these"},
			{Path: "b.go", Side: run.SideNew, Line: 1, Text: "why?"},
		}, MessageHeader + " (2):\n\n1. a.go:3 (the base's line, removed by your change)\n> x := 1\n> y := 2\nkeep these\n\n2. b.go:1\nwhy?\n\nPlease address each comment."},
	} {
		if got := Message(c.comments); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}
