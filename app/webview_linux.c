//go:build linux && desktop

// The webview's guards (webview_linux.go): run on the GTK main thread, find
// the window's WebKitWebView, answer its decide-policy and note whether the
// drag over it offers files.
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include "_cgo_export.h"

static gboolean hd_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type, gpointer data)
{
    if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        webkit_policy_decision_ignore(decision);
        hdNewWindowRefused();
        return TRUE;
    }
    if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) {
        return FALSE; /* responses: WebKit's own handling */
    }
    WebKitNavigationAction *action = webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
    const gchar *target = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
    const gchar *current = webkit_web_view_get_uri(view);
    if (hdAllowNavigation((char *)(target ? target : ""), (char *)(current ? current : ""))) {
        return FALSE; /* the default: load it */
    }
    webkit_policy_decision_ignore(decision);
    return TRUE;
}

/* Whether the drag last over the view offers files (text/uri-list): 1 or 0,
 * -1 before any drag. Written on the GTK thread, read from Go's. */
static gint hd_drag_offers_files = -1;

static gboolean hd_drag_motion(GtkWidget *view, GdkDragContext *context, gint x, gint y, guint time, gpointer data)
{
    GdkAtom uris = gdk_atom_intern_static_string("text/uri-list");
    int offers = 0;
    for (GList *l = gdk_drag_context_list_targets(context); l != NULL; l = l->next) {
        if (GDK_POINTER_TO_ATOM(l->data) == uris) {
            offers = 1;
            break;
        }
    }
    g_atomic_int_set(&hd_drag_offers_files, offers);
    return FALSE; /* WebKit goes on with the drag */
}

int hdDragOffersFiles(void)
{
    return g_atomic_int_get(&hd_drag_offers_files);
}

static WebKitWebView *hd_find_view(GtkWidget *w)
{
    if (WEBKIT_IS_WEB_VIEW(w)) {
        return WEBKIT_WEB_VIEW(w);
    }
    if (!GTK_IS_CONTAINER(w)) {
        return NULL;
    }
    WebKitWebView *found = NULL;
    GList *children = gtk_container_get_children(GTK_CONTAINER(w));
    for (GList *l = children; l != NULL && found == NULL; l = l->next) {
        found = hd_find_view(GTK_WIDGET(l->data));
    }
    g_list_free(children);
    return found;
}

static gboolean hd_install(gpointer data)
{
    int guarded = 0;
    GList *tops = gtk_window_list_toplevels();
    for (GList *l = tops; l != NULL; l = l->next) {
        WebKitWebView *view = hd_find_view(GTK_WIDGET(l->data));
        if (view == NULL) {
            continue;
        }
        if (g_object_get_data(G_OBJECT(view), "hd-nav-guard") == NULL) {
            g_object_set_data(G_OBJECT(view), "hd-nav-guard", GINT_TO_POINTER(1));
            g_signal_connect(view, "decide-policy", G_CALLBACK(hd_decide_policy), NULL);
            g_signal_connect(view, "drag-motion", G_CALLBACK(hd_drag_motion), NULL);
        }
        guarded++;
    }
    g_list_free(tops);
    hdNavigationGuarded(guarded);
    return G_SOURCE_REMOVE;
}

void hdGuardNavigation(void)
{
    /* Any thread: GTK is only touched on its main loop. */
    g_idle_add(hd_install, NULL);
}
