//go:build !linux && !darwin && !windows

package notify

import (
	"errors"
	"log/slog"
)

// NewPlatformSender: no notification service is known on this system.
func NewPlatformSender(string, func(key, action string), *slog.Logger) (Sender, error) {
	return nil, errors.New("notifications are not supported on this system")
}
