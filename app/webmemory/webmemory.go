// Package webmemory makes the window's web process give back memory once
// the work that needed it is done, as backend/memtrim does for Go's own
// process. WebKit keeps what a long task's rendering took (its JavaScript
// heap, compiled code and caches: 50 MB and more after a 200-step task)
// for as long as the window is open, and its 4.0 API has no call that
// gives it back. Its memory-pressure release does: the WebKit extension
// in extension/ lets the page ask for that release (after which it gives
// back its libraries' pages, as memtrim does Go's), Install has WebKit
// load it, and Release asks the page.
package webmemory

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// files holds the extension's source and, in a build made by the
// Makefile (`make webmemory`), the extension itself.
//
//go:embed extension
var files embed.FS

// libName is the extension's file, in extension/ and where it is installed.
const libName = "errand-webmemory.so"

// ErrNotBuilt says the build carries no extension (a plain `go build`).
var ErrNotBuilt = errors.New("this build carries no web process extension (make webmemory)")

// Install puts the extension in dir (which then holds it alone) and has
// WebKit load it into the window's web process. It must run before the
// window is created.
func Install(dir string) error {
	if !supported {
		return nil
	}
	lib, err := files.ReadFile("extension/" + libName)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotBuilt
	}
	if err != nil {
		return err
	}
	if err := put(filepath.Join(dir, libName), lib); err != nil {
		return fmt.Errorf("install the web process extension: %w", err)
	}
	return useExtensions(dir)
}

// put writes data to path unless it holds it already; a new copy replaces
// the old in one rename, so a web process never loads half a file.
func put(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// script asks the page for the release; a page without the extension
// (another WebKit, a browser) has no such function and does nothing.
// First the page copies what it keeps of a long task together
// (errandCompactMemory: the collector frees the blocks the old copies
// were scattered over); its render of the copies runs in the script's
// microtasks, before the release, which waits for the script to return.
const script = "window.errandCompactMemory?.(); window.errandReleaseMemory?.()"

// Release asks the window's web process to give back what it no longer
// needs. It blocks the page for a moment (21–84 ms measured during
// 200-step runs), so it is for when nothing is at work.
func Release(ctx context.Context) {
	runtime.WindowExecJS(ctx, script)
}
