package notify

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// Service is what the notifier needs of the data dir's service: its
// controls, the window's focus, and (once the service has it) the watch
// bus. It lives beside the supervisor — the app's backend or `serve` —
// so whoever supervises the runs calls the person back.
type Service interface {
	Controls
	OnClientFocus(func(service.ClientFocus)) (remove func())
}

// Start runs a notifier for svc until ctx ends or the returned stop is
// called. svc must also be a traystate.Source (service.Service.Watch); a
// service without the watch bus, or a desktop without a notification
// service, gets no notifications and a log line saying why.
func Start(ctx context.Context, svc Service, open func(sessionID string), log *slog.Logger) (stop func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	src, ok := svc.(traystate.Source)
	if !ok {
		log.Info("notifications: this build's service has no watch bus; no notifications")
		return func() {}
	}
	return StartWith(ctx, svc, src, "", open, log)
}

// StartWith is Start with the watch source and the session bus address
// ("" for the desktop's) given: the tests' way in.
func StartWith(ctx context.Context, svc Service, src traystate.Source, busAddress string,
	open func(sessionID string), log *slog.Logger) (stop func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var n *Notifier
	var ready sync.WaitGroup
	ready.Add(1)
	sender, err := NewPlatformSender(busAddress, func(key, action string) {
		ready.Wait()
		n.Invoke(key, action)
	}, log)
	if err != nil {
		ready.Done()
		log.Info("notifications unavailable", "err", err)
		return func() {}
	}
	n = New(Config{Sender: sender, Controls: svc, Open: open, Log: log.With("component", "notify")})
	ready.Done()
	unfocus := svc.OnClientFocus(func(f service.ClientFocus) { n.SetFocus(Focus{SessionID: f.SessionID, Focused: f.Focused}) })
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); n.Run(ctx, src) }()
	return func() {
		unfocus()
		cancel()
		<-done
		if c, ok := sender.(io.Closer); ok {
			_ = c.Close()
		}
	}
}
