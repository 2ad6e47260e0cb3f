package review

import (
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// MessageHeader starts every review message: the agent reads what follows
// as review comments, and the transcript can tell a review from a typed
// message (the comments themselves are journaled with the run they were
// sent in).
const MessageHeader = "Review comments on your work in this workspace"

// Message is the one follow-up message a review's comments become: each
// as `path:line`, its quoted lines, its text, in the order given (the
// window's order: oldest first). Table-tested in message_test.go.
func Message(comments []run.ReviewComment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d):\n", MessageHeader, len(comments))
	for i, c := range comments {
		where := fmt.Sprintf("%s:%d", c.Path, c.Line)
		if c.Side == run.SideOld {
			where += " (the base's line, removed by your change)"
		}
		fmt.Fprintf(&b, "\n%d. %s\n", i+1, where)
		if q := strings.TrimRight(c.Quote, "\n"); q != "" {
			for _, line := range strings.Split(q, "\n") {
				b.WriteString("> " + line + "\n")
			}
		}
		b.WriteString(strings.TrimSpace(c.Text) + "\n")
	}
	b.WriteString("\nPlease address each comment.")
	return b.String()
}
