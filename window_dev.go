//go:build dev

package main

import (
	"net/http"
	"os"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// The development build serves the frontend to a browser through its dev
// server (the end-to-end tests drive it from Chromium), and its own window
// runs a second copy of the frontend on the same backend. With
// ERRAND_DEV_BLANK_WINDOW=1 the window shows a blank page instead, so the
// browser is the backend's only frontend and nothing renders every event
// twice; the dev server serves the frontend as before.
func devWindow(o *assetserver.Options) {
	if os.Getenv("ERRAND_DEV_BLANK_WINDOW") != "1" {
		return
	}
	before := o.Middleware
	o.Middleware = func(next http.Handler) http.Handler {
		if before != nil {
			next = before(next)
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The window asks for wails://wails/…; the dev server's
			// browsers ask for their own host.
			if r.Host != "wails" {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html><title>Errand</title>"))
		})
	}
}
