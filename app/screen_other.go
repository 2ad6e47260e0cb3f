//go:build !linux

package app

import "image"

// workAreas: elsewhere the window keeps the toolkit's placement (only the
// saved size and theme apply).
func workAreas(string) ([]image.Rectangle, image.Point) { return nil, image.Point{} }

func placeWindow(string, image.Rectangle) {}

// watchWindow: no move or resize events here; the window's place is saved
// as it hides, minimises or quits.
func watchWindow(string) <-chan struct{} { return nil }
