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
// without OpenGL (skipGDKGL), JavaScript without its last compiler tier
// (skipFTL), and Errand's extension in its web process (app/webmemory),
// through which the window gives back its memory with Go's.
func PrepareWindow(dataDir string) {
	keepScrollbars()
	skipGDKGL()
	skipFTL()
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

// jscFTL is JavaScriptCore's switch for FTL, the last of its compilers
// (after the interpreter, Baseline and DFG); the web process reads it at
// its start.
const jscFTL = "JSC_useFTLJIT"

// skipFTL runs the window's JavaScript without FTL, unless the person set
// JSC_useFTLJIT. FTL compiles a function again once it has run hot in
// DFG's code, on threads of their own, and takes far longer at it: in the
// 40 s of three long replies stopped (the Stop bench), 203 FTL compiles
// took 5.7 s of CPU and DFG's 1,548 took 3.2 s, beside the page's own work
// on two cores. What FTL speeds up is long-running loops; the window's
// work is many short renders, where DFG's code did as well. Without it, a
// list streamed at 1,000 tokens a second showed 52.5–52.9 frames a second
// in four runs, against 42.6–50.4 with it (docs/BENCHMARKS.md, the
// twenty-seventh step).
func skipFTL() { unlessChosen(jscFTL, "false") }

// unlessChosen sets the environment variable name to value, unless the
// person set it.
func unlessChosen(name, value string) {
	if _, chosen := os.LookupEnv(name); !chosen {
		_ = os.Setenv(name, value)
	}
}
