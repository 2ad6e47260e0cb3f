//go:build desktoptest

package desktop

import (
	"fmt"
	"image"
	"io"
	"log"
	"strconv"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// x11 reads the test's X server directly: a screenshot and a window's
// place in a few milliseconds, where `import` (encoding a PNG) and
// `xwininfo` took ~200 ms a probe together, so a polled "painted" was
// seen up to that late and jumped by as much from run to run.
type x11 struct {
	once sync.Once
	conn *xgb.Conn
	root xproto.Window
	err  error
}

// xgb logs each connection without an auth cookie (Xvfb has none).
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

func (x *x11) open(display string) error {
	x.once.Do(func() {
		x.conn, x.err = xgb.NewConnDisplay(display)
		if x.err == nil {
			x.root = xproto.Setup(x.conn).DefaultScreen(x.conn).Root
		}
	})
	return x.err
}

func (x *x11) close() {
	if x.conn != nil {
		x.conn.Close()
	}
}

// rootImage is the whole screen (depth 24 in 32-bit little-endian BGRX
// pixels, as Xvfb -screen …x24 serves them).
func (x *x11) rootImage(display string) (image.Image, error) {
	if err := x.open(display); err != nil {
		return nil, err
	}
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return nil, err
	}
	w, h := int(g.Width), int(g.Height)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	// In bands: one reply may not exceed the server's request size.
	const band = 128
	for y := 0; y < h; y += band {
		bh := min(band, h-y)
		r, err := xproto.GetImage(x.conn, xproto.ImageFormatZPixmap, xproto.Drawable(x.root),
			0, int16(y), uint16(w), uint16(bh), 0xffffffff).Reply()
		if err != nil {
			return nil, err
		}
		if r.Depth != 24 || len(r.Data) < w*bh*4 {
			return nil, fmt.Errorf("x11: unexpected image depth %d, %d bytes for %d×%d", r.Depth, len(r.Data), w, bh)
		}
		for i := 0; i < w*bh; i++ {
			o := (y*w + i) * 4
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = r.Data[i*4+2], r.Data[i*4+1], r.Data[i*4], 0xff
		}
	}
	return img, nil
}

// geometry is the client rectangle of window id ("0x…", as wmctrl and
// xdotool print it) on the screen.
func (x *x11) geometry(display, id string) (image.Rectangle, error) {
	if err := x.open(display); err != nil {
		return image.Rectangle{}, err
	}
	n, err := strconv.ParseUint(id, 0, 32)
	if err != nil {
		return image.Rectangle{}, fmt.Errorf("window id %q: %w", id, err)
	}
	win := xproto.Window(n)
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(win)).Reply()
	if err != nil {
		return image.Rectangle{}, err
	}
	t, err := xproto.TranslateCoordinates(x.conn, win, x.root, 0, 0).Reply()
	if err != nil {
		return image.Rectangle{}, err
	}
	return image.Rect(int(t.DstX), int(t.DstY), int(t.DstX)+int(g.Width), int(t.DstY)+int(g.Height)), nil
}

// activeWindow is the root's _NET_ACTIVE_WINDOW (the window manager's
// keyboard window) as xdotool prints ids, "" when none.
func (x *x11) activeWindow(display string) (string, error) {
	if err := x.open(display); err != nil {
		return "", err
	}
	atom, err := xproto.InternAtom(x.conn, true, uint16(len("_NET_ACTIVE_WINDOW")), "_NET_ACTIVE_WINDOW").Reply()
	if err != nil {
		return "", err
	}
	p, err := xproto.GetProperty(x.conn, false, x.root, atom.Atom, xproto.AtomWindow, 0, 1).Reply()
	if err != nil || p.ValueLen == 0 || len(p.Value) < 4 {
		return "", err
	}
	id := uint32(p.Value[0]) | uint32(p.Value[1])<<8 | uint32(p.Value[2])<<16 | uint32(p.Value[3])<<24
	if id == 0 {
		return "", nil
	}
	return strconv.FormatUint(uint64(id), 10), nil
}
