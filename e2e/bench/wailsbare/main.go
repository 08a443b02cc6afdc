// Command wailsbare is the "simplest alternative" the benchmarks compare
// Errand's window with: a Wails v2 window on the same WebKitGTK showing a
// static page that calls one bound Go method when it loads, and a Stop
// button that calls Go, which answers with an event. Errand's cold
// start and memory minus this one's are what Errand itself costs.
//
// Build it as wails build does (the tags select the production frontend):
//
//	go build -tags desktop,production -ldflags "-s -w" -o build/bin/wailsbare ./e2e/bench/wailsbare
//
// With BARE_READY_FILE set, the bound call writes that file (the desktop
// benchmark waits for it, as it waits for Errand's first database row).
// With BARE_STREAM set to a rate (tokens a second), Go streams words to
// the page at that rate from the first SIGUSR2 on (WebKit's
// JavaScriptCore takes SIGUSR1), as Errand's runner
// streams a reply, an event a frame, and the page writes them at the end
// of a text that follows its end: the floor for Stop while a reply
// streams. (The benchmark starts the stream once the window has started.)
package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed index.html
var assets embed.FS

// Bare is the bound service.
type Bare struct{ ctx context.Context }

// Stop answers the page's Stop button with the event "stopped", as
// Errand's runner answers StopTask with the stopped task's event.
func (b *Bare) Stop() { runtime.EventsEmit(b.ctx, "stopped") }

// Ready is called by the page once it runs.
func (*Bare) Ready() string {
	if f := os.Getenv("BARE_READY_FILE"); f != "" {
		_ = os.WriteFile(f, []byte("ready\n"), 0o644)
	}
	return "ok"
}

// stream sends the page rate words a second for as long as it runs, the
// words due in an event "delta" each sixtieth of a second (Errand's runner
// sends a streaming reply's text about as often).
func (b *Bare) stream(rate float64) {
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	start, sent := time.Now(), 0
	for range tick.C {
		var words strings.Builder
		for due := int(time.Since(start).Seconds() * rate); sent < due; sent++ {
			fmt.Fprintf(&words, " tok%d", sent+1)
		}
		runtime.EventsEmit(b.ctx, "delta", words.String())
	}
}

func main() {
	bare := &Bare{}
	if rate, err := strconv.ParseFloat(os.Getenv("BARE_STREAM"), 64); err == nil && rate > 0 {
		start := make(chan os.Signal, 1)
		signal.Notify(start, syscall.SIGUSR2)
		go func() {
			<-start
			bare.stream(rate)
		}()
	}
	err := wails.Run(&options.App{
		Title:            "Bare",
		Width:            1200,
		Height:           820,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 251, A: 255},
		OnStartup:        func(ctx context.Context) { bare.ctx = ctx },
		Bind:             []any{bare},
		LogLevel:         logger.WARNING,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "wailsbare:", err)
		os.Exit(1)
	}
}
