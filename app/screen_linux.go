package app

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

typedef struct { int x, y, w, h; } hdRect;

typedef struct {
	hdRect areas[16];
	int n;
	int decoW, decoH;  // the frame around the client area, when mapped
	int placeIt;       // move and resize the window to target
	hdRect target;
	const char *title; // the window to place
	int watch;         // connect the window's move/resize signals
	int watched;       // out: the window was found and connected
	int done;
	GMutex mu;
	GCond cond;
} hdCall;

// hdWindow is the mapped-or-not top-level window with this title.
static GtkWindow *hdWindow(const char *title) {
	GtkWindow *found = NULL;
	GList *all = gtk_window_list_toplevels();
	for (GList *l = all; l != NULL; l = l->next) {
		GtkWindow *w = GTK_WINDOW(l->data);
		const char *t = gtk_window_get_title(w);
		if (gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL && t != NULL && g_strcmp0(t, title) == 0) {
			found = w;
			break;
		}
	}
	g_list_free(all);
	return found;
}

extern void hdWindowChanged(void); // winwatch_linux.go

// hdChanged forwards a move, resize or (un)maximise to Go, which saves
// after the window has been still for a moment; GTK goes on as usual.
static gboolean hdChanged(GtkWidget *w, GdkEvent *e, gpointer data) {
	hdWindowChanged();
	return FALSE;
}

static gboolean hdRun(gpointer data) {
	hdCall *c = data;
	if (c->watch) {
		GtkWindow *w = hdWindow(c->title);
		if (w != NULL) {
			g_signal_connect(w, "configure-event", G_CALLBACK(hdChanged), NULL);
			g_signal_connect(w, "window-state-event", G_CALLBACK(hdChanged), NULL);
			c->watched = 1;
		}
	} else if (c->placeIt) {
		GtkWindow *w = hdWindow(c->title);
		if (w != NULL) {
			gtk_window_resize(w, c->target.w, c->target.h);
			gtk_window_move(w, c->target.x, c->target.y);
		}
	} else {
		GtkWindow *w = hdWindow(c->title);
		GdkWindow *gw = w ? gtk_widget_get_window(GTK_WIDGET(w)) : NULL;
		if (gw != NULL && gdk_window_is_visible(gw)) {
			GdkRectangle f;
			gdk_window_get_frame_extents(gw, &f);
			c->decoW = f.width - gdk_window_get_width(gw);
			c->decoH = f.height - gdk_window_get_height(gw);
		}
		GdkDisplay *d = gdk_display_get_default();
		int n = d ? gdk_display_get_n_monitors(d) : 0;
		GdkMonitor *primary = d ? gdk_display_get_primary_monitor(d) : NULL;
		c->n = 0;
		// The primary monitor first: place() centres there.
		for (int pass = 0; pass < 2; pass++) {
			for (int i = 0; i < n && c->n < 16; i++) {
				GdkMonitor *m = gdk_display_get_monitor(d, i);
				if ((pass == 0) != (m == primary || (primary == NULL && i == 0))) continue;
				GdkRectangle r;
				gdk_monitor_get_workarea(m, &r);
				c->areas[c->n] = (hdRect){r.x, r.y, r.width, r.height};
				c->n++;
			}
		}
	}
	g_mutex_lock(&c->mu);
	c->done = 1;
	g_cond_signal(&c->cond);
	g_mutex_unlock(&c->mu);
	return G_SOURCE_REMOVE;
}

// hdCallOnMain runs c on GTK's main thread at low priority, after the
// toolkit's own pending work (Wails centres a new window in an idle
// callback: a placement must come after it), and waits for it.
static void hdCallOnMain(hdCall *c) {
	g_mutex_init(&c->mu);
	g_cond_init(&c->cond);
	c->done = 0;
	if (g_main_context_is_owner(g_main_context_default())) {
		hdRun(c); // on the main thread already: waiting would deadlock
	} else {
		g_idle_add_full(G_PRIORITY_LOW, hdRun, c, NULL);
	}
	g_mutex_lock(&c->mu);
	while (!c->done) g_cond_wait(&c->cond, &c->mu);
	g_mutex_unlock(&c->mu);
	g_mutex_clear(&c->mu);
	g_cond_clear(&c->cond);
}
*/
import "C"

import (
	"image"
	"unsafe"
)

// workAreas lists the attached monitors' work areas (without panels), the
// primary first, on the root window's coordinates, and the size of the
// window manager's frame around the window titled title (zero until it is
// framed). It runs on GTK's main thread, so call it only while the main
// loop runs (after startup) and never from that thread.
func workAreas(title string) ([]image.Rectangle, image.Point) {
	c := (*C.hdCall)(C.calloc(1, C.sizeof_hdCall))
	defer C.free(unsafe.Pointer(c))
	ct := C.CString(title)
	defer C.free(unsafe.Pointer(ct))
	c.title = ct
	C.hdCallOnMain(c)
	out := make([]image.Rectangle, 0, int(c.n))
	for i := 0; i < int(c.n); i++ {
		a := c.areas[i]
		out = append(out, image.Rect(int(a.x), int(a.y), int(a.x+a.w), int(a.y+a.h)))
	}
	return out, image.Pt(int(c.decoW), int(c.decoH))
}

// placeWindow moves and resizes the window titled title to r (frame's
// top-left, client size), on GTK's main thread. Wails' own
// WindowSetPosition is relative to the monitor the window is on, which
// cannot express "on the other monitor".
func placeWindow(title string, r image.Rectangle) {
	c := (*C.hdCall)(C.calloc(1, C.sizeof_hdCall))
	defer C.free(unsafe.Pointer(c))
	ct := C.CString(title)
	defer C.free(unsafe.Pointer(ct))
	c.placeIt, c.title = 1, ct
	c.target = C.hdRect{C.int(r.Min.X), C.int(r.Min.Y), C.int(r.Dx()), C.int(r.Dy())}
	C.hdCallOnMain(c)
}

// watchWindow connects GTK's configure-event and window-state-event of
// the window titled title: every move, resize, maximise or minimise sends
// on the returned channel (coalesced: one pending value at most). Call it
// once, after startup, never from GTK's main thread. nil: no such window.
func watchWindow(title string) <-chan struct{} {
	c := (*C.hdCall)(C.calloc(1, C.sizeof_hdCall))
	defer C.free(unsafe.Pointer(c))
	ct := C.CString(title)
	defer C.free(unsafe.Pointer(ct))
	c.watch, c.title = 1, ct
	C.hdCallOnMain(c)
	if c.watched == 0 {
		return nil
	}
	return windowChanged
}
