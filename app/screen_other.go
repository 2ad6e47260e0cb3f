//go:build !linux

package app

import "image"

// workAreas: elsewhere the window keeps the toolkit's placement (only the
// saved size and theme apply).
func workAreas(string) ([]image.Rectangle, image.Point) { return nil, image.Point{} }

func placeWindow(string, image.Rectangle) {}
