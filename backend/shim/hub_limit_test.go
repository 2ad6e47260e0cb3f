package shim

// setLimit changes the per-subscriber bound (small in tests).
func (h *hub) setLimit(n int) { h.f.SetLimit(n) }
