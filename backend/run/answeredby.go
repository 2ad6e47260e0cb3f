package run

import "context"

// Who answered a prompt (ApprovalResolved.By). Every answering surface —
// the window, the CLI, a notification's button — goes through the same
// service control; only this label differs (docs/ARCHITECTURE.md
// §Notifications). The supervisor carries it to the run's shim.
const (
	AnsweredByUser         = "user"
	AnsweredByNotification = "notification"
)

type answeredByKey struct{}

// WithAnsweredBy marks ctx as an answer given from by (one of the
// AnsweredBy constants).
func WithAnsweredBy(ctx context.Context, by string) context.Context {
	return context.WithValue(ctx, answeredByKey{}, by)
}

// AnsweredBy is who answers in ctx: a known label, else AnsweredByUser.
func AnsweredBy(ctx context.Context) string {
	return CleanAnsweredBy(func() string { s, _ := ctx.Value(answeredByKey{}).(string); return s }())
}

// CleanAnsweredBy maps anything but a known label to AnsweredByUser, so a
// control request cannot write arbitrary text into the journal.
func CleanAnsweredBy(by string) string {
	if by == AnsweredByNotification {
		return by
	}
	return AnsweredByUser
}
