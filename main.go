// Errand: hand a task to an AI agent that works on it by itself, in a
// desktop window, with everything kept in local SQLite.
package main

import (
	"context"
	"embed"
	"fmt"
	"os"

	"github.com/errand-app/errand/app"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

//go:embed all:frontend/dist
var assets embed.FS

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
	a, err := app.New(context.Background(), cfg)
	if err != nil {
		return err
	}
	return wails.Run(&options.App{
		Title:            "Errand",
		Width:            1200,
		Height:           820,
		MinWidth:         800,
		MinHeight:        560,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 251, A: 255},
		OnStartup:        a.Startup,
		OnShutdown:       a.Shutdown,
		Bind:             a.Bound(),
		ErrorFormatter:   app.FormatError,
		LogLevel:         logger.WARNING,
	})
}
