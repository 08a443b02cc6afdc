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
import "unsafe"

// supported: WebKitGTK loads extensions.
const supported = true

// useExtensions has WebKit's default context, which the window uses, load
// the extensions in dir into its web processes.
func useExtensions(dir string) error {
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	C.use_extensions(cdir)
	return nil
}
