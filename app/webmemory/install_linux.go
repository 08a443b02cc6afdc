package webmemory

/*
#cgo linux pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <stdlib.h>
#include <webkit2/webkit2.h>

// use_extensions readies GTK first: WebKit's default context needs its
// display (without it, GTK stops the process creating a style context).
static gboolean use_extensions(const char *dir) {
	if (!gtk_init_check(NULL, NULL)) {
		return FALSE;
	}
	webkit_web_context_set_web_extensions_directory(webkit_web_context_get_default(), dir);
	return TRUE;
}
*/
import "C"
import (
	"errors"
	"os"
	"unsafe"
)

// supported: WebKitGTK loads extensions.
const supported = true

// errNoDisplay: GTK found no display; Wails then says why it has no window.
var errNoDisplay = errors.New("there is no display to open a window on")

// useExtensions has WebKit's default context, which the window uses, load
// the extensions in dir into its web processes. It readies GTK for that,
// before Wails does, and so first picks GTK's backend as Wails would (X11
// unless the session says it is another).
func useExtensions(dir string) error {
	if session := os.Getenv("XDG_SESSION_TYPE"); os.Getenv("GDK_BACKEND") == "" &&
		(session == "" || session == "unspecified" || session == "x11") {
		_ = os.Setenv("GDK_BACKEND", "x11")
	}
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	if C.use_extensions(cdir) == 0 {
		return errNoDisplay
	}
	return nil
}
