//go:build linux && desktop

// The clipboard's image, read natively (clipboard_linux.go): WebKitGTK's
// paste event offers the page only the clipboard's text targets, so an
// image copied from a screenshot tool or an image viewer never reached it.
#include <stdint.h>
#include <gtk/gtk.h>
#include "_cgo_export.h"

static void hd_image_received(GtkClipboard *clipboard, GdkPixbuf *pixbuf, gpointer data)
{
    gchar *png = NULL;
    gsize len = 0;
    if (pixbuf == NULL || !gdk_pixbuf_save_to_buffer(pixbuf, &png, &len, "png", NULL, NULL)) {
        hdClipboardImage((uintptr_t)data, NULL, 0);
        return;
    }
    hdClipboardImage((uintptr_t)data, png, (int)len);
    g_free(png);
}

static void hd_png_received(GtkClipboard *clipboard, GtkSelectionData *sel, gpointer data)
{
    gint len = sel != NULL ? gtk_selection_data_get_length(sel) : -1;
    if (len > 0) {
        hdClipboardImage((uintptr_t)data, (char *)gtk_selection_data_get_data(sel), len);
        return;
    }
    /* No image/png: any image GdkPixbuf reads (image/jpeg, image/bmp…), as PNG. */
    gtk_clipboard_request_image(clipboard, hd_image_received, data);
}

static gboolean hd_request_image(gpointer data)
{
    GtkClipboard *clipboard = gtk_clipboard_get(GDK_SELECTION_CLIPBOARD);
    /* The PNG's own bytes first: exact, and nothing to encode. */
    gtk_clipboard_request_contents(clipboard, gdk_atom_intern_static_string("image/png"), hd_png_received, data);
    return G_SOURCE_REMOVE;
}

void hdRequestClipboardImage(uintptr_t id)
{
    /* Any thread: GTK is only touched on its main loop. */
    g_idle_add(hd_request_image, (gpointer)id);
}
