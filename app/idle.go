package app

import (
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/memtrim"
)

// idleAfter is how long no task must have worked before Errand gives back
// what the work alone needed; it gives back once more releaseAgainAfter
// later. A window behind on a long task's events still renders them, and
// asks Go for what they show, after the first release: after a 200-step
// task the second release gave back 8 MB more of the executable, and on a
// loaded machine 10 MB of it were still back 15 s after the first.
const (
	idleAfter         = 10 * time.Second
	releaseAgainAfter = 30 * time.Second
)

// releaseMemory gives back what only the work just done needed: the pages
// of the code it ran, Errand's and its libraries' (see backend/memtrim;
// about 30 MB after a start or a task), the C heaps' free memory and the
// Go heap it freed.
// It runs after the late start, and whenever the tasks stop working. The
// Go heap goes last, so that it gives back what the rest allocated too.
func releaseMemory() {
	own, err := memtrim.ReleaseFiles()
	memtrim.TrimMalloc()
	if err != nil {
		slog.Warn("give back memory", "err", err)
	} else {
		slog.Info("gave back memory", "files_mb", own>>20)
	}
	debug.FreeOSMemory()
}

// releaseMemory gives back the memory of Go's process, then asks the
// window's web process to give back its own (app/webmemory) once the
// window is up and while no task works: the web process's release stops
// the page for a moment, and a streaming reply would show it.
func (a *App) releaseMemory() {
	releaseMemory()
	if ctx := a.events.window(); ctx != nil && a.idle.idle() {
		a.releaseWindow(ctx)
	}
}

// idleRelease calls release once no task has worked for idleAfter, and
// again releaseAgainAfter later if none has worked since: each
// task that stops working (ends, or waits for the person) starts the wait
// again, and a task at work when it ends puts it off to the next stop. It
// hears task changes from the first (recovery, before the runner exists),
// so it is told the runner's count of tasks at work once there is one.
type idleRelease struct {
	working   func() int // the tasks at work now
	release   func()
	afterFunc func(time.Duration, func()) *time.Timer
	mu        sync.Mutex
	timer     *time.Timer
	stopped   bool
}

func newIdleRelease(release func()) *idleRelease {
	return &idleRelease{release: release, afterFunc: time.AfterFunc}
}

// count tells it how to count the tasks at work.
func (i *idleRelease) count(working func() int) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.working = working
}

// idle is whether no task works (false while there is no runner to ask).
func (i *idleRelease) idle() bool {
	i.mu.Lock()
	working := i.working
	i.mu.Unlock()
	return working != nil && working() == 0
}

// taskUpdated hears every stored change of a task.
func (i *idleRelease) taskUpdated(t chat.Task) {
	if !t.Status.Terminal() && !t.Status.Waiting() {
		return
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.stopped {
		return
	}
	i.releaseAfter(idleAfter, releaseAgainAfter)
}

// releaseAfter (under mu) starts the wait for the first of the delays,
// and after each release the wait for the next.
func (i *idleRelease) releaseAfter(delays ...time.Duration) {
	if i.timer != nil {
		i.timer.Stop()
	}
	var t *time.Timer
	t = i.afterFunc(delays[0], func() {
		if !i.idle() {
			return
		}
		i.release()
		i.mu.Lock()
		defer i.mu.Unlock()
		// A task that stopped meanwhile started its own wait.
		if len(delays) > 1 && !i.stopped && i.timer == t {
			i.releaseAfter(delays[1:]...)
		}
	})
	i.timer = t
}

// stop cancels a wait under way (Errand is quitting).
func (i *idleRelease) stop() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stopped = true
	if i.timer != nil {
		i.timer.Stop()
	}
}
