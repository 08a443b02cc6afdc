package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os/exec"
	"strings"
)

// window is the app's top-level X window, driven with xdotool and read
// with ImageMagick's import, as a person's keyboard and eyes would.
type window struct{ id string }

// findWindow waits for a visible top-level window of process pid.
func findWindow(ctx context.Context, pid int) (*window, error) {
	var id string
	err := poll(ctx, "a visible window of the app's process", func() (bool, error) {
		out, _ := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--pid", fmt.Sprint(pid)).Output()
		id = strings.TrimSpace(strings.Split(string(out), "\n")[0])
		return id != "", nil
	})
	return &window{id: id}, err
}

func xdotool(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// focus gives the window the keyboard. With no window manager under Xvfb
// the input focus is otherwise wherever the pointer happens to be.
func (w *window) focus(ctx context.Context) error {
	return xdotool(ctx, "windowfocus", "--sync", w.id)
}

// resize sets the window's size and waits until a screenshot has it.
func (w *window) resize(ctx context.Context, width, height int) error {
	if err := xdotool(ctx, "windowsize", "--sync", w.id, fmt.Sprint(width), fmt.Sprint(height)); err != nil {
		return err
	}
	return poll(ctx, fmt.Sprintf("the window at %d×%d", width, height), func() (bool, error) {
		img, err := w.shot(ctx)
		if err != nil {
			return false, err
		}
		return img.Bounds().Dx() == width && img.Bounds().Dy() == height, nil
	})
}

// key presses keys (xdotool names: Tab, shift+Tab, ctrl+n, Down) on the
// focused window.
func (w *window) key(ctx context.Context, keys ...string) error {
	return xdotool(ctx, append([]string{"key", "--clearmodifiers"}, keys...)...)
}

// typeText types text into whatever has the keyboard focus.
func (w *window) typeText(ctx context.Context, text string) error {
	return xdotool(ctx, "type", "--clearmodifiers", "--delay", "20", text)
}

// shot is the window as it shows on the screen now.
func (w *window) shot(ctx context.Context) (image.Image, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "import", "-window", w.id, "png:-")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return png.Decode(&out)
}
