package traystate

import "github.com/hermesdesk/hermesdesk/backend/watchbus"

// Source is the one method of the watch bus a follower needs
// (service.Service.Watch has it; tests use a fake). Every Go client
// follows it through watchbus.Follow (docs/ARCHITECTURE.md §The watch bus).
type Source = watchbus.Source
