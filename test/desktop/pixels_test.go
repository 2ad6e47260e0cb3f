//go:build desktoptest

package desktop

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
)

// rendered checks that the window at r shows a UI rather than a blank (or
// black) webview: many colours (text, icons) and a left sidebar whose colour
// differs from the main pane's.
func rendered(img image.Image, r image.Rectangle) error {
	r = r.Intersect(img.Bounds())
	if r.Dx() < 400 || r.Dy() < 300 {
		return fmt.Errorf("window too small on screen: %v", r)
	}
	colours := map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			colours[[3]uint32{cr >> 11, cg >> 11, cb >> 11}] = true
		}
	}
	if len(colours) < 12 {
		return fmt.Errorf("window shows only %d colours: blank or not painted", len(colours))
	}
	top, bottom := r.Min.Y+r.Dy()/5, r.Max.Y-r.Dy()/5
	// Backgrounds, not averages: a pane full of cards and text averages
	// out to about the sidebar's grey (a CI failure), its background does
	// not.
	side := background(img, image.Rect(r.Min.X+8, top, r.Min.X+r.Dx()/10, bottom))
	pane := background(img, image.Rect(r.Min.X+r.Dx()/2, top, r.Max.X-8, bottom))
	diff := abs(side[0]-pane[0]) + abs(side[1]-pane[1]) + abs(side[2]-pane[2])
	if diff < 6 {
		return fmt.Errorf("sidebar %v and main pane %v look the same (Δ %.1f)", side, pane, diff)
	}
	return nil
}

func mean(img image.Image, r image.Rectangle) [3]float64 {
	var sum [3]float64
	n := 0.0
	for y := r.Min.Y; y < r.Max.Y; y += 3 {
		for x := r.Min.X; x < r.Max.X; x += 3 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			sum[0] += float64(cr >> 8)
			sum[1] += float64(cg >> 8)
			sum[2] += float64(cb >> 8)
			n++
		}
	}
	return [3]float64{sum[0] / n, sum[1] / n, sum[2] / n}
}

// background is the commonest colour in r (sampled every third pixel).
func background(img image.Image, r image.Rectangle) [3]float64 {
	count := map[[3]uint32]int{}
	var best [3]uint32
	for y := r.Min.Y; y < r.Max.Y; y += 3 {
		for x := r.Min.X; x < r.Max.X; x += 3 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			c := [3]uint32{cr >> 8, cg >> 8, cb >> 8}
			count[c]++
			if count[c] > count[best] {
				best = c
			}
		}
	}
	return [3]float64{float64(best[0]), float64(best[1]), float64(best[2])}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// crop copies the part of img inside r.
func crop(img image.Image, r image.Rectangle) image.Image {
	r = r.Intersect(img.Bounds())
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// saveShot keeps a screenshot under test-results/ for people to look at.
func saveShot(img image.Image, name string) string {
	dir := filepath.Join("..", "..", "test-results")
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	png.Encode(f, img)
	abs, _ := filepath.Abs(p)
	return abs
}
