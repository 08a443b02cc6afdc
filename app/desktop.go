package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// wailsDesktop is the desktop through the Wails runtime: its notifications
// (D-Bus on Linux) and the window title.
type wailsDesktop struct {
	ctx     context.Context
	initErr error // why notifications are unavailable, if they are
}

// startDesktop readies notifications; where the desktop has none (no
// D-Bus to reach), notify fails and the notifier logs it once.
func startDesktop(ctx context.Context) *wailsDesktop {
	d := &wailsDesktop{ctx: ctx}
	if err := runtime.InitializeNotifications(ctx); err != nil {
		d.initErr = err
		return d
	}
	runtime.OnNotificationResponse(ctx, func(res runtime.NotificationResult) {
		if res.Error != nil {
			return
		}
		id, _ := res.Response.UserInfo["conversationId"].(string)
		runtime.WindowUnminimise(ctx)
		runtime.WindowShow(ctx)
		if id != "" {
			runtime.EventsEmit(ctx, EventOpenConversation, id)
		}
	})
	return d
}

func (d *wailsDesktop) notify(n notice) error {
	if d.initErr != nil {
		return d.initErr
	}
	if !runtime.IsNotificationAvailable(d.ctx) {
		return errors.New("no notification service")
	}
	err := runtime.SendNotification(d.ctx, runtime.NotificationOptions{
		ID: uuid.NewString(), Title: n.Title, Body: n.Body,
		Data: map[string]any{"conversationId": n.ConversationID},
	})
	if err != nil {
		return fmt.Errorf("send a notification: %w", err)
	}
	return nil
}

func (d *wailsDesktop) setTitle(title string) { runtime.WindowSetTitle(d.ctx, title) }

func (d *wailsDesktop) stop() {
	if d.initErr == nil {
		runtime.CleanupNotifications(d.ctx)
	}
}

// Window is the bound service the window tells what the person looks at,
// so that a notification is not sent about the conversation on screen.
type Window struct {
	notifier *notifier
	ready    func()
	snapshot *snapshotFile // the first screen kept for the next start
	release  func()        // gives back memory: Go's, then the window's
}

// Ready is the window's word that its first screen is painted: what it
// does not need starts now (the MCP servers, desktop notifications). Only
// the first call does anything. timings are the page's steps of its start,
// in milliseconds since it began to load (see frontend/src/lib/startTimings.ts):
// they go to the log, where a slow start shows where its time went.
func (w *Window) Ready(timings map[string]float64) {
	if len(timings) > 0 {
		slog.Info("first screen", "ms", startTimings(timings))
	}
	if w.ready != nil {
		go w.ready()
	}
}

// startTimings writes the start's steps in the order they happened:
// "html=4 module=103 first-paint=170 … painted=297".
func startTimings(timings map[string]float64) string {
	steps := make([]string, 0, len(timings))
	for step := range timings {
		steps = append(steps, step)
	}
	sort.Slice(steps, func(i, j int) bool {
		a, b := timings[steps[i]], timings[steps[j]]
		return a < b || (a == b && steps[i] < steps[j])
	})
	var b strings.Builder
	for i, step := range steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%.0f", step, timings[step])
	}
	return b.String()
}

// SetViewing records the conversation on screen ("" for none) and whether
// the window has the focus.
func (w *Window) SetViewing(conversationID string, focused bool) {
	w.notifier.view(conversationID, focused)
}
