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
// After it, a thread unmaps the pages of the libraries' code and read-only
// data that only this process holds (40 MB and more: WebKit's and
// JavaScriptCore's code runs here and nowhere else), as backend/memtrim
// does for Go's executable. They are clean copies of their files: the
// kernel keeps them in its page cache while it has room, and a page that
// is needed again is mapped again on first use.
//
// Built by `make webmemory` (the Makefile's build depends on it).
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <webkit2/webkit-web-extension.h>

typedef void *(*singleton_fn)(void);
typedef void (*release_fn)(void *handler, bool critical, bool synchronous);

static singleton_fn pressure_handler;
static release_fn release_memory;
static bool pending;

// A mapping of /proc/self/smaps, as far as its release needs it.
struct mapping {
	unsigned long start, end;
	bool file;       // a private mapping of a file that is still there
	bool writable;
	long anonymous;  // kB the process changed (copied on write)
	long own;        // kB resident that no other process maps
};

// clean: only unchanged pages of a file, which the file can give again.
static bool clean(const struct mapping *m) {
	return m->file && !m->writable && m->anonymous == 0;
}

// header reads "start-end perms offset dev inode [path]".
static void header(const char *line, struct mapping *m) {
	char perms[8] = "";
	int path = 0;
	memset(m, 0, sizeof *m);
	if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &m->start, &m->end, perms, &path) < 3) {
		return;
	}
	m->writable = strchr(perms, 'w') != NULL;
	m->file = perms[3] == 'p' && path > 0 && line[path] == '/' && !strstr(line + path, " (deleted)");
}

// release_clean unmaps m's pages when it is clean; returns the kB given back.
static long release_clean(const struct mapping *m) {
	if (!clean(m) || m->own == 0 || madvise((void *)m->start, m->end - m->start, MADV_DONTNEED) != 0) {
		return 0;
	}
	return m->own;
}

// release_file_pages unmaps every clean mapping's pages; returns the kB
// that were this process's alone. It is backend/memtrim's ReleaseFiles,
// for this process.
static long release_file_pages(void) {
	FILE *f = fopen("/proc/self/smaps", "re");
	if (!f) {
		return 0;
	}
	char *line = NULL;
	size_t cap = 0;
	long kb, given = 0;
	struct mapping m = {0};
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "Anonymous: %ld", &kb) == 1) {
			m.anonymous = kb;
		} else if (sscanf(line, "Private_Clean: %ld", &kb) == 1 || sscanf(line, "Private_Dirty: %ld", &kb) == 1) {
			m.own += kb; // dirty in a clean mapping: not yet written to its file
		} else if (strncmp(line, "VmFlags:", 8) == 0) { // a mapping's last line
			given += release_clean(&m);
		} else if ((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) {
			header(line, &m); // fields start with a capital, headers with an address
		}
	}
	free(line);
	fclose(f);
	return given;
}

static gpointer release_pages(gpointer unused) {
	gint64 start = g_get_monotonic_time();
	long kb = release_file_pages();
	fprintf(stderr, "errand web process: gave back %.1f MB of its libraries' pages in %.0f ms\n",
		kb / 1024.0, (g_get_monotonic_time() - start) / 1000.0);
	return NULL;
}

static gboolean release_now(gpointer unused) {
	gint64 start = g_get_monotonic_time();
	release_memory(pressure_handler(), true, true);
	pending = false;
	fprintf(stderr, "errand web process: gave back memory in %.0f ms\n",
		(g_get_monotonic_time() - start) / 1000.0);
	g_thread_unref(g_thread_new("errand-release", release_pages, NULL));
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
