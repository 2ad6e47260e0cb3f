//go:build darwin || windows

package notify

import (
	"fmt"
	"log/slog"

	"github.com/gen2brain/beeep"
)

// nativeSender shows notifications in the macOS or Windows notification
// centre through github.com/gen2brain/beeep. That library offers no
// buttons, so an approval says what is asked and a click opens nothing:
// the person answers in the window (docs/ARCHITECTURE.md §Notifications).
// Withdrawing is not offered either; a newer notification says what
// changed.
type nativeSender struct{ log *slog.Logger }

// NewPlatformSender returns the native sender; address and invoke are
// unused here (no bus, no actions).
func NewPlatformSender(_ string, _ func(key, action string), log *slog.Logger) (Sender, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	beeep.AppName = "Hermes Desk"
	return nativeSender{log: log}, nil
}

func (s nativeSender) Send(n Note) error {
	body := n.Body
	if n.PromptID != "" {
		body += "\nOpen Hermes Desk to answer."
	}
	if err := beeep.Notify(n.Summary, body, ""); err != nil {
		return fmt.Errorf("notifications: %w", err)
	}
	return nil
}

func (s nativeSender) Withdraw(string) error { return nil }
