// Errand: hand a task to an AI agent that works on it by itself, in a
// desktop window, with everything kept in local SQLite.
package main

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	goruntime "runtime"
	"sync/atomic"

	"github.com/errand-app/errand/app"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed all:frontend/dist
var assets embed.FS

// firstStartFile is the copy of a first start's screen in the frontend's
// build, written by scripts/first-start.sh (the next frontend build
// removes it).
const firstStartFile = ".first-start.json"

// The window's toolkit (GTK, and WebKit, which app.PrepareWindow readies
// before Wails starts) must be used from one thread, the one it was first
// used on: main keeps the process's main thread from its start.
func init() { goruntime.LockOSThread() }

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "errand:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		return err
	}
	// The build's copy of a first start's screen (scripts/first-start.sh),
	// when it has one.
	cfg.FirstStart, _ = assets.ReadFile("frontend/dist/" + firstStartFile)
	if generatingBindings {
		if cfg.DataDir, err = os.MkdirTemp("", "errand-bindings-"); err != nil {
			return err
		}
		defer os.RemoveAll(cfg.DataDir)
	}
	stopLog, err := app.StartLog(cfg.DataDir, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "errand: no log file:", err)
	}
	defer stopLog()
	if !generatingBindings { // that run opens no window
		app.PrepareWindow(cfg.DataDir)
	}
	opts := &options.App{
		Title:            "Errand",
		Width:            1200,
		Height:           820,
		MinWidth:         800,
		MinHeight:        560,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 251, A: 255},
		ErrorFormatter:   app.FormatError,
		LogLevel:         logger.WARNING,
		// Files dropped on the window reach Go by path (the window's
		// OnFileDrop), so Go checks each one — a symlink or a FIFO is
		// refused before anything reads it. DisableWebViewDrop stays off:
		// on Linux (v2.16) it unsets the webview's drop target before
		// Wails connects its own handlers, and no drop arrives at all.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		// One window per data folder: a second launch brings the first to
		// the front (where the desktop offers a session bus).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(cfg.DataDir),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) {
				if ctx := windowCtx.Load(); ctx != nil {
					runtime.WindowUnminimise(*ctx)
					runtime.Show(*ctx)
				}
			},
		},
	}
	// The database opens beside the window's own start; the page waits
	// for it.
	if a, err := app.Start(context.Background(), cfg); err != nil {
		// Another Errand has the data folder: the window still opens, to
		// say so; the log (and stderr) get the cause.
		slog.Error("Errand could not start", "err", err)
		opts.Bind = []any{app.Unavailable(cfg, err)}
		opts.OnStartup = func(ctx context.Context) { windowCtx.Store(&ctx) }
	} else {
		opts.AssetServer.Middleware = a.Page
		opts.Bind = a.Bound()
		opts.OnStartup = func(ctx context.Context) {
			windowCtx.Store(&ctx)
			a.Startup(ctx)
		}
		opts.OnBeforeClose = a.BeforeClose
		opts.OnShutdown = a.Shutdown
	}
	devWindow(opts.AssetServer)
	return wails.Run(opts)
}

var windowCtx atomic.Pointer[context.Context]

// instanceID names the single-instance lock after the data folder.
func instanceID(dataDir string) string {
	sum := sha256.Sum256([]byte(dataDir))
	return "errand-" + hex.EncodeToString(sum[:8])
}
