/* A tiny GTK program for the drop test (test/desktop/drop_test.go): a
 * window that offers the files (or URLs) named on the command line as
 * text/uri-list when dragged from, as a file manager (or a browser) does
 * (with --text STRING, that string as text/plain, as an editor does), and with --probe a second
 * window that accepts drops and prints what it got (which proves the test's
 * xdotool drag really performs an XDND drop on this display). */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

static gchar **uris;

static const char *text; /* --text: offer this as plain text instead */

static void on_get(GtkWidget *w, GdkDragContext *c, GtkSelectionData *d, guint info, guint t, gpointer u) {
    if (text)
        gtk_selection_data_set_text(d, text, -1);
    else
        gtk_selection_data_set_uris(d, uris);
}

static void on_end(GtkWidget *w, GdkDragContext *c, gpointer u) {
    printf("drag-end\n");
    fflush(stdout);
}

static gboolean on_failed(GtkWidget *w, GdkDragContext *c, GtkDragResult r, gpointer u) {
    printf("drag-failed %d\n", (int)r);
    fflush(stdout);
    return TRUE; /* no snap-back animation */
}

static void on_received(GtkWidget *w, GdkDragContext *c, gint x, gint y, GtkSelectionData *d, guint info, guint t, gpointer u) {
    gchar **got = gtk_selection_data_get_uris(d);
    printf("probe-received");
    for (gchar **p = got; p && *p; p++) printf(" %s", *p);
    printf("\n");
    fflush(stdout);
    g_strfreev(got);
    gtk_drag_finish(c, TRUE, FALSE, t);
}

static int unmapped; /* windows not yet on screen: "ready" waits for them */

static gboolean on_map(GtkWidget *w, GdkEvent *e, gpointer u) {
    if (--unmapped == 0) {
        printf("ready\n");
        fflush(stdout);
    }
    return FALSE;
}

static GtkWidget *window(const char *title, const char *text, int x, int y) {
    GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(win), title);
    gtk_window_set_default_size(GTK_WINDOW(win), 200, 120);
    gtk_window_move(GTK_WINDOW(win), x, y);
    GtkWidget *box = gtk_event_box_new();
    gtk_container_add(GTK_CONTAINER(box), gtk_label_new(text));
    gtk_container_add(GTK_CONTAINER(win), box);
    g_signal_connect(win, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    g_signal_connect(win, "map-event", G_CALLBACK(on_map), NULL);
    unmapped++;
    return box;
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    int probe = argc > 1 && g_strcmp0(argv[1], "--probe") == 0;
    if (argc > 2 && g_strcmp0(argv[1], "--text") == 0)
        text = argv[2];
    int first = probe ? 2 : 1;
    uris = g_new0(gchar *, argc);
    /* A path is offered as a file:// URI; a URL (a link dragged from a browser) as itself. */
    for (int i = first; i < argc; i++)
        uris[i - first] = strstr(argv[i], "://") ? g_strdup(argv[i]) : g_filename_to_uri(argv[i], NULL, NULL);

    GtkTargetEntry uri_list = {"text/uri-list", 0, 0};
    GtkTargetEntry plain = {"text/plain", 0, 0};
    GtkWidget *src = window("dnd-source", "drag me", 1180, 20);
    gtk_drag_source_set(src, GDK_BUTTON1_MASK, text ? &plain : &uri_list, 1, GDK_ACTION_COPY | GDK_ACTION_MOVE | GDK_ACTION_LINK);
    g_signal_connect(src, "drag-data-get", G_CALLBACK(on_get), NULL);
    g_signal_connect(src, "drag-end", G_CALLBACK(on_end), NULL);
    g_signal_connect(src, "drag-failed", G_CALLBACK(on_failed), NULL);
    gtk_widget_show_all(gtk_widget_get_toplevel(src));

    if (probe) {
        GtkWidget *dst = window("dnd-probe", "drop here", 1180, 300);
        gtk_drag_dest_set(dst, GTK_DEST_DEFAULT_ALL, &uri_list, 1, GDK_ACTION_COPY);
        g_signal_connect(dst, "drag-data-received", G_CALLBACK(on_received), NULL);
        gtk_widget_show_all(gtk_widget_get_toplevel(dst));
    }
    gtk_main();
    return 0;
}
