// Command windowcheck checks what only the real production window
// (WebKitGTK, build/bin/errand) can show, driving it under an X display
// (run it under xvfb-run) with xdotool as a person's keyboard would and
// reading its screenshots (ImageMagick's import) for what must show:
//
//   - focus ring: in a seeded history, Tab from the page's start reaches
//     the conversation list's row (found as the ringed control whose next
//     tab stop lies inside it, its rename button); ↓ there draws a ring of
//     the same size on the row below.
//   - auto-scroll: at the smallest window (800×560), a 400-word reply from
//     the scripted model server (mockmodel's [slow]) that nobody scrolled
//     ends with its completion card in view.
//
// Nothing is found by fixed coordinates and nothing waits a fixed time:
// each step waits for the state it needs (a frame, a row in the app's
// database, read-only) up to two minutes, which only a broken build takes.
// A failed check keeps its screenshot in -out, beside the app's output.
//
// Usage:
//
//	windowcheck [-app build/bin/errand] [-model build/bin/mockmodel] [-seed build/bin/e2e-seed] [-out build/window-checks]
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

type config struct {
	app, model, seed string
	out              string // where screenshots of failures go
	work             string // the checks' data folders
	only             string // run only the check of this name
}

func main() {
	var cfg config
	flag.StringVar(&cfg.app, "app", "build/bin/errand", "the production build")
	flag.StringVar(&cfg.model, "model", "build/bin/mockmodel", "the scripted model server")
	flag.StringVar(&cfg.seed, "seed", "build/bin/e2e-seed", "the history seeder")
	flag.StringVar(&cfg.out, "out", "build/window-checks", "the `folder` for screenshots of failed checks")
	flag.StringVar(&cfg.only, "only", "", "run only this `check` (focus ring, auto-scroll)")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config) error {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "windowcheck-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	cfg.work = work
	checks := []struct {
		name string
		fn   func(context.Context, config) (string, error)
	}{{"focus ring", checkFocusRing}, {"auto-scroll", checkAutoScroll}}
	failed := false
	for _, c := range checks {
		if cfg.only != "" && cfg.only != c.name {
			continue
		}
		msg, err := c.fn(ctx, cfg)
		if err != nil {
			failed = true
			fmt.Printf("FAIL %s: %v\n", c.name, err)
			continue
		}
		fmt.Printf("ok   %s: %s\n", c.name, msg)
	}
	if failed {
		return fmt.Errorf("window checks failed; screenshots in %s", cfg.out)
	}
	return nil
}

// keep saves the frame a check failed on as out/name.png and returns err.
func (cfg config) keep(err error, img image.Image, name string) error {
	if img == nil {
		return err
	}
	f, ferr := os.Create(filepath.Join(cfg.out, name+".png"))
	if ferr != nil {
		return err
	}
	defer f.Close()
	_ = png.Encode(f, img)
	return fmt.Errorf("%w; screenshot %s", err, f.Name())
}
