package main

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

const (
	// prompt asks, as a task (/task: not the direct answer Auto may pick),
	// the scripted model for 400 words, one every 50 ms, then task_complete:
	// far more than the smallest window shows.
	prompt = "/task [slow] tell a long story"
	// script is the part of the prompt the stored message and task keep.
	script = "[slow] tell a long story"
	// minCard is the fewest green pixels that make the completion card's
	// badge and check mark.
	minCard = 300
)

// checkAutoScroll: at the smallest window (800×560), a long reply nobody
// scrolled must end with its completion card in view; then, the task
// ended, the window gives back its memory, and the card stays in view.
func checkAutoScroll(ctx context.Context, cfg config) (string, error) {
	model, url, err := startModel(cfg.model)
	if err != nil {
		return "", err
	}
	defer model.stop()
	data := filepath.Join(cfg.work, "scroll")
	logPath := filepath.Join(cfg.out, "scroll-app.log")
	app, err := startApp(cfg.app, data, logPath, "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY=x", "ERRAND_MODEL=mock-model")
	if err != nil {
		return "", err
	}
	defer app.stop()
	w, err := readyWindow(ctx, app, 800, 560)
	if err != nil {
		return "", err
	}
	st, err := openStore(ctx, data)
	if err != nil {
		return "", err
	}
	defer st.close()
	frame, err := sendPrompt(ctx, w, st)
	if err != nil {
		return "", cfg.keep(err, frame, "scroll-prompt")
	}
	if err := replyDone(ctx, st); err != nil {
		return "", err
	}
	releases, _, err := windowReleases(logPath)
	if err != nil {
		return "", err
	}
	base := count(frame, success)
	cardInView := func(img image.Image) bool { return count(img, success) >= base+minCard }
	img, err := waitFor(ctx, w, "the completion card in view", cardInView)
	if err != nil {
		return "", cfg.keep(fmt.Errorf("%w (%d green pixels, %d before the reply)", err, count(img, success), base), img, "scroll")
	}
	// Once the task has ended and nothing works, the window gives back
	// the memory the reply took, and then its libraries' pages, as Go
	// does (app/webmemory).
	var pages float64
	err = poll(ctx, "the window to give back its memory after the task", func() (bool, error) {
		n, mb, err := windowReleases(logPath)
		pages = mb
		return n > releases, err
	})
	if err != nil {
		return "", err
	}
	if pages <= 0 {
		return "", fmt.Errorf("the window gave back none of its libraries' pages after the task")
	}
	// Just before, the page copied its messages anew (the messages store's
	// compaction) and rendered the copies, a frame the web process drew
	// before its release (which waits for idle time): the card is still
	// in view. (Not "at rest": the caret in the message box may blink.)
	img, err = waitFor(ctx, w, "the completion card in view once the window gave back its memory", cardInView)
	if err != nil {
		return "", cfg.keep(fmt.Errorf("%w: the card left the view as the window gave back its memory (%d green pixels, %d before the reply)", err, count(img, success), base), img, "scroll-released")
	}
	return fmt.Sprintf("the completion card is in view after a 400-word reply at 800×560 (%d green pixels, %d before), and still once the window gave back its memory after it (%.1f MB of its libraries' pages)", count(img, success), base, pages), nil
}

// pagesLine is what the window's web process says, on the app's output,
// once it has given back its memory and then its libraries' pages.
var pagesLine = regexp.MustCompile(`errand web process: gave back ([0-9.]+) MB of its libraries' pages`)

// windowReleases counts the times the window's web process has given
// back its memory, and reads the MB of its libraries' pages it gave back
// the last time.
func windowReleases(logPath string) (n int, pagesMB float64, err error) {
	b, err := os.ReadFile(logPath)
	lines := pagesLine.FindAllSubmatch(b, -1)
	if len(lines) > 0 {
		pagesMB, _ = strconv.ParseFloat(string(lines[len(lines)-1][1]), 64)
	}
	return len(lines), pagesMB, err
}

// readyWindow finds the app's window, gives it the keyboard, sizes it and
// waits until the page is drawn at that size.
func readyWindow(ctx context.Context, app *started, width, height int) (*window, error) {
	w, err := findWindow(ctx, app.cmd.Process.Pid)
	if err != nil {
		return nil, err
	}
	if err := w.focus(ctx); err != nil {
		return nil, err
	}
	return w, w.resize(ctx, width, height)
}

// sendPrompt opens a conversation with Ctrl+N, waits for the composer to
// take the keyboard (its outline turns the accent colour), types the prompt
// and sends it, and waits until the app has stored it. It returns the
// frame from before the prompt was typed.
func sendPrompt(ctx context.Context, w *window, st *store) (image.Image, error) {
	err := poll(ctx, "the page to create its first conversation", func() (bool, error) {
		n, err := st.number(ctx, `SELECT count(*) FROM conversations`)
		return n > 0, err
	})
	if err != nil {
		return nil, err
	}
	frame, err := settled(ctx, w)
	if err != nil {
		return frame, err
	}
	if err := w.key(ctx, "ctrl+n"); err != nil {
		return frame, err
	}
	frame, err = waitFor(ctx, w, "the composer's focus outline after Ctrl+N", func(img image.Image) bool {
		return gained(frame, img, accent).n >= minRing
	})
	if err != nil {
		return frame, err
	}
	if err := w.typeText(ctx, prompt); err != nil {
		return frame, err
	}
	if err := w.key(ctx, "Return"); err != nil {
		return frame, err
	}
	return frame, poll(ctx, "the window to take the prompt (its message stored)", func() (bool, error) {
		n, err := st.number(ctx, `SELECT count(*) FROM messages WHERE role = 'user' AND instr(content, ?) > 0`, script)
		return n > 0, err
	})
}

// replyDone waits for the prompt's task to complete.
func replyDone(ctx context.Context, st *store) error {
	var status string
	err := poll(ctx, "the reply's task to complete", func() (bool, error) {
		var err error
		status, err = st.taskStatus(ctx, script)
		if status == "error" || status == "cancelled" {
			return false, fmt.Errorf("the reply's task ended %s", status)
		}
		return status == "completed", err
	})
	return err
}
