package webmemory

/*
#cgo linux pkg-config: webkit2gtk-4.0
#include <stdlib.h>
#include <webkit2/webkit2.h>

static void use_extensions(const char *dir) {
	webkit_web_context_set_web_extensions_directory(webkit_web_context_get_default(), dir);
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

// errNoDisplay: WebKit readied without a display stops the process (GTK's
// error), before Wails could say why it has no window.
var errNoDisplay = errors.New("there is no display to open a window on")

// useExtensions has WebKit's default context, which the window uses, load
// the extensions in dir into its web processes.
func useExtensions(dir string) error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	C.use_extensions(cdir)
	return nil
}
