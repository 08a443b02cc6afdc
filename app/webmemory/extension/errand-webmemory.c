// The window's web process side of giving memory back (see
// app/webmemory). WebKit loads this extension into the web process
// that runs Errand's page. It gives the page one function,
// errandReleaseMemory(), which asks the web process to do what it does
// under memory pressure once the page's current script has returned:
// collect the whole JavaScript heap, drop compiled code and caches, and
// return the free memory to the system. A long task leaves 50 MB or more
// of that behind, which WebKit otherwise keeps for as long as the window
// is open; its 4.0 API has no call for it.
//
// The release is WTF::MemoryPressureHandler's own, found by name when the
// extension loads. A WebKit without it gets no function, and the page
// finds none to call.
//
// Built by `make webmemory` (the Makefile's build depends on it).
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <webkit2/webkit-web-extension.h>

typedef void *(*singleton_fn)(void);
typedef void (*release_fn)(void *handler, bool critical, bool synchronous);

static singleton_fn pressure_handler;
static release_fn release_memory;
static bool pending;

static gboolean release_now(gpointer unused) {
	gint64 start = g_get_monotonic_time();
	release_memory(pressure_handler(), true, true);
	pending = false;
	fprintf(stderr, "errand web process: gave back memory in %.0f ms\n",
		(g_get_monotonic_time() - start) / 1000.0);
	return G_SOURCE_REMOVE;
}

// errandReleaseMemory() in the page: the release runs after the script
// that called it, from the web process's main loop, once however often
// it is asked before then.
static gboolean schedule_release(gpointer unused) {
	if (!pending) {
		pending = true;
		g_idle_add(release_now, NULL);
	}
	return TRUE;
}

static void window_object_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer unused) {
	if (!webkit_frame_is_main_frame(frame)) {
		return;
	}
	JSCContext *js = webkit_frame_get_js_context_for_script_world(frame, world);
	JSCValue *fn = jsc_value_new_function(js, "errandReleaseMemory", G_CALLBACK(schedule_release), NULL, NULL, G_TYPE_BOOLEAN, 0);
	jsc_context_set_value(js, "errandReleaseMemory", fn);
	g_object_unref(fn);
	g_object_unref(js);
}

G_MODULE_EXPORT void webkit_web_extension_initialize(WebKitWebExtension *extension) {
	pressure_handler = (singleton_fn)dlsym(RTLD_DEFAULT, "_ZN3WTF21MemoryPressureHandler9singletonEv");
	release_memory = (release_fn)dlsym(RTLD_DEFAULT, "_ZN3WTF21MemoryPressureHandler13releaseMemoryENS_8CriticalENS_11SynchronousE");
	if (!pressure_handler || !release_memory) {
		fprintf(stderr, "errand web process: this WebKit cannot be asked to give back memory\n");
		return;
	}
	g_signal_connect(webkit_script_world_get_default(), "window-object-cleared", G_CALLBACK(window_object_cleared), NULL);
}
