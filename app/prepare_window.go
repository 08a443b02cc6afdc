package app

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/errand-app/errand/app/webmemory"
)

// PrepareWindow readies what the window's processes start with, before
// the window is created: scrollbars that stay (keepScrollbars), GDK
// without OpenGL (skipGDKGL), and Errand's extension in its web process
// (app/webmemory), through which the window gives back its memory with
// Go's.
func PrepareWindow(dataDir string) {
	keepScrollbars()
	skipGDKGL()
	err := webmemory.Install(filepath.Join(dataDir, "webmemory"))
	switch {
	case errors.Is(err, webmemory.ErrNotBuilt):
		slog.Info("the window gives back no memory", "err", err)
	case err != nil:
		slog.Warn("the window gives back no memory", "err", err)
	}
}

// overlayScrolling is GTK's switch for scrollbars that fade in over the
// content as it scrolls and out after; WebKitGTK's page follows it.
const overlayScrolling = "GTK_OVERLAY_SCROLLING"

// keepScrollbars has the window draw scrollbars that stay in place, unless
// the person chose otherwise. Overlay scrollbars fade in and out after
// every scroll, and without a GPU WebKitGTK paints the whole window again
// at every frame of the fade, for about a second: after a start with a
// long conversation (its first screen scrolls to the end) that was
// 0.6–1.0 s of the web process's CPU, and 7 MB of WebKit's drawing code
// kept in memory once idle.
func keepScrollbars() { unlessChosen(overlayScrolling, "0") }

// gdkGL is GDK's switch for its OpenGL support.
const gdkGL = "GDK_GL"

// skipGDKGL turns GDK's OpenGL support off, unless the person set GDK_GL.
// On X11, GDK's start asks the GL driver for the visuals it offers: with
// Mesa's software driver that starts LLVM, and took gtk_init from 20–25 ms
// to 52–71 ms, before the window could map. Nothing in the window draws
// with GDK's OpenGL: WebKit's hardware acceleration is off (Wails's Linux
// default), and WebKit opens its own EGL display where it needs one.
func skipGDKGL() { unlessChosen(gdkGL, "disable") }

// unlessChosen sets the environment variable name to value, unless the
// person set it.
func unlessChosen(name, value string) {
	if _, chosen := os.LookupEnv(name); !chosen {
		_ = os.Setenv(name, value)
	}
}
