package main

// The -steps figure: how much a long task grows the footprint. A start with
// an empty history (its settings allow the task's steps) is measured at idle
// as any other, with its composer clicked as the task's will be (the caret
// it draws keeps WebKit's drawing code in use, which an idle window without
// it gives back); then a task of N steps is typed into the window, and once it
// has ended, the app is idle again and has given back what the task alone
// needed (its idle release, logged as "gave back memory"; before it, Go's
// share is whatever the task left and a reading depends on when it is
// taken), the memory is read again after the settle time.

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>
*/
import "C"

import (
	"context"
	"database/sql"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
)

// taskResult is what the app looks like after the task.
type taskResult struct {
	steps     int       // the task's steps, as Errand counted them
	seconds   float64   // from the task's start to its end, as Errand stored them
	ended     time.Time // the task's end, as Errand stored it (ms)
	memory    []procMem
	footprint float64 // MB
	shot      image.Image
}

// taskScript is the model's side of a task of n steps: each step lists the
// workspace (list_files: read-only, so approved by default, and only inside
// the conversation's folder in the data directory) with a line of text;
// then it completes the task. The step is read back from the last step's
// text, so a summary of the earlier messages does not lose count.
func taskScript(n int) func(*compat.Request) compat.Reply {
	return func(req *compat.Request) compat.Reply {
		switch {
		case req.AsksForSummary():
			return compat.Reply{Text: "Summary: the workspace was listed step by step, as asked."}
		case len(req.Tools) == 0: // the conversation's title
			return compat.Reply{Text: "Listing the workspace"}
		}
		done := stepsDone(req.Messages)
		if done >= n {
			return compat.Reply{Text: "All steps done.", ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete,
				Arguments: fmt.Sprintf(`{"summary":"Listed the workspace %d times."}`, n)}}}
		}
		return compat.Reply{
			Text: fmt.Sprintf("Step %d of %d: listing the workspace.", done+1, n),
			// Alternate arguments: the same call in a row would make Errand ask.
			ToolCalls: []chat.ToolCall{{Name: tools.ListFiles{}.Name(), Arguments: fmt.Sprintf(`{"recursive":%t}`, done%2 == 1)}},
		}
	}
}

// stepsDone is the number of the last step the model took, 0 before the first.
func stepsDone(msgs []compat.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		var k, of int
		if msgs[i].Role == "assistant" {
			if _, err := fmt.Sscanf(msgs[i].Text(), "Step %d of %d", &k, &of); err == nil {
				return k
			}
		}
	}
	return 0
}

// allowSteps creates the database at path with settings whose step limit
// lets a task of n steps (and its final one) run without asking.
func allowSteps(path string, n int) error {
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Settings(ctx)
	if err != nil {
		return err
	}
	s.Limits.MaxSteps = n + 10
	return st.SaveSettings(ctx, s)
}

// runTask types a task of n steps into the window, waits until it has
// ended, the app is idle and has released its memory (logPath), then
// reads the memory after settle.
func runTask(l *live, n int, settle time.Duration) (taskResult, error) {
	sent := time.Now()
	if err := l.send(fmt.Sprintf("/task List the workspace %d times", n)); err != nil {
		return taskResult{}, err
	}
	t, err := waitTask(l.db, sent, l.exited)
	if err != nil {
		return t, err
	}
	if t.steps < n {
		return t, fmt.Errorf("the task completed after %d steps, not %d", t.steps, n)
	}
	ended, released := time.Now(), releases(l.logPath)
	for cpu := newCPUMeter(l.pid); !cpu.idle(); time.Sleep(50 * time.Millisecond) {
		select {
		case <-l.exited:
			return t, fmt.Errorf("the app exited after the task")
		default:
		}
		if time.Since(ended) > 10*time.Minute {
			return t, fmt.Errorf("not idle 10 minutes after the task")
		}
	}
	if err := waitRelease(l.logPath, released, l.exited); err != nil {
		return t, err
	}
	time.Sleep(settle)
	t.memory = treeMemory(l.pid)
	t.footprint, _ = footprintParts(l.pid)
	t.shot = screenshot(l.dpy, l.win, l.w, l.h)
	return t, nil
}

// send types a message into the composer and sends it. The composer may
// have no focus (the window has just opened): it is clicked first.
func (l *live) send(text string) error {
	if err := l.focusComposer(); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"type", "--delay", "20", text},
		{"key", "Return"},
	} {
		if err := xdotool(args...); err != nil {
			return err
		}
	}
	return nil
}

// focusComposer clicks the composer, as a person does (it spans the
// bottom of the conversation's pane).
func (l *live) focusComposer() error {
	id := strconv.FormatUint(uint64(l.win), 10)
	return xdotool("mousemove", "--window", id, strconv.Itoa(l.w*3/5), strconv.Itoa(l.h-80), "click", "1")
}

// xdotool runs xdotool with args (keys typed, the pointer moved).
func xdotool(args ...string) error {
	if b, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool %s: %v %s", args[0], err, b)
	}
	return nil
}

// waitTask waits until the task typed into the window (the newest one,
// started at or after since) has completed; a task that stops to ask,
// fails or never starts breaks the measurement.
func waitTask(db *sql.DB, since time.Time, exited <-chan struct{}) (taskResult, error) {
	var t taskResult
	typed := time.Now()
	for {
		select {
		case <-exited:
			return t, fmt.Errorf("the app exited during the task")
		default:
		}
		var status, question, failure string
		var started, ended int64
		// The newest task is the table's last row: one look reads one row.
		// (By started_at it read the whole table, from disk after each of
		// the app's writes: in the seeded history half a core, taken from
		// the window it measures.)
		err := db.QueryRow(`SELECT status, step_count, started_at, COALESCE(ended_at, 0), pending_question, error_message
			FROM tasks ORDER BY rowid DESC LIMIT 1`).Scan(&status, &t.steps, &started, &ended, &question, &failure)
		if err == nil && started < since.UnixMilli() {
			err = sql.ErrNoRows
		}
		switch s := chat.TaskStatus(status); {
		case err == sql.ErrNoRows:
			if time.Since(typed) > 2*time.Minute {
				return t, fmt.Errorf("no task started from the typed prompt (did the click reach the composer?)")
			}
		case err != nil: // the app is writing: read again
		case s == chat.StatusCompleted:
			t.seconds = float64(ended-started) / 1000
			t.ended = time.UnixMilli(ended)
			return t, nil
		case s == chat.StatusCancelled || s == chat.StatusError || s == chat.StatusInterrupted:
			return t, fmt.Errorf("the task ended %s at step %d: %s", s, t.steps, failure)
		case s == chat.StatusWaitingUser || s == chat.StatusWaitingApproval || s == chat.StatusPaused:
			return t, fmt.Errorf("the task stopped at step %d to ask: %s", t.steps, question)
		}
		if time.Since(typed) > 30*time.Minute {
			return t, fmt.Errorf("the task had not ended after 30 minutes (step %d, %s)", t.steps, status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// measureSteps starts the app with an empty history, runs a task of n
// steps in its window and emits the footprint before and after.
func measureSteps(dpy *C.Display, app, baseURL string, n int, settle time.Duration, prefix, shots string) error {
	r, err := start(dpy, benchCase{name: "steps", app: app, steps: n}, baseURL, true, settle)
	if err != nil {
		return fmt.Errorf("a task of %d steps: %w", n, err)
	}
	p := prefix + ".steps"
	before, after := privateByKind(r.memory), privateByKind(r.task.memory)
	emit(p+".count", float64(r.task.steps), "count")
	emit(p+".seconds", r.task.seconds, "s")
	emit(p+".footprint_before", r.footprint, "MB")
	emit(p+".footprint_after", r.task.footprint, "MB")
	emit(p+".growth", r.task.footprint-r.footprint, "MB")
	for _, k := range []string{"go", "webkit_web", "webkit_network"} {
		emit(p+".growth_private."+k, after[k]-before[k], "MB")
	}
	saveShot(shots, "steps", r.task.shot)
	return nil
}

// privateByKind adds up the private memory of each kind of process (procKind).
func privateByKind(mem []procMem) map[string]float64 {
	out := map[string]float64{}
	for _, m := range mem {
		out[procKind(m.name)] += m.private
	}
	return out
}

// releaseLine is what the app logs when it gives back memory at idle.
const releaseLine = `msg="gave back memory"`

// releases counts the idle releases in the app's log so far.
func releases(logPath string) int {
	b, _ := os.ReadFile(logPath)
	return strings.Count(string(b), releaseLine)
}

// waitRelease waits until the app has logged an idle release more than
// before (it comes about 10 s after the last task stopped).
func waitRelease(logPath string, before int, exited <-chan struct{}) error {
	for start := time.Now(); releases(logPath) <= before; time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			return fmt.Errorf("the app exited after the task")
		default:
		}
		if time.Since(start) > 5*time.Minute {
			return fmt.Errorf("no idle memory release logged 5 minutes after the task")
		}
	}
	return nil
}
