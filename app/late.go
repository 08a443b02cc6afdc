package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/secrets"
	"github.com/errand-app/errand/backend/tools"
)

// Work the first screen does not need waits until the window has shown
// it, so that it does not compete with the window's start: the MCP
// servers, desktop notifications, the attachments' sweep, counting the
// checkpoints' contents, readying the tools (their schemas, the sandbox's
// probe). The window says when (Window.Ready,
// after its first screen is painted); if it never does (it could not
// start), lateStartAfter after Wails' start is the latest.
const lateStartAfter = 5 * time.Second

// mcpStartWait bounds how long a task that starts before the MCP servers
// are up waits for them (each server's own start is bounded too).
const mcpStartWait = 15 * time.Second

// lateStart runs its work once, when first asked, and never after
// Shutdown began.
type lateStart struct {
	mu      sync.Mutex
	started bool
	work    []func()
	running sync.WaitGroup // the run under way, which cancel waits for
}

// add queues work for the late start.
func (l *lateStart) add(work func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.work = append(l.work, work)
}

// run starts the queued work, the first time it is called.
func (l *lateStart) run() {
	l.mu.Lock()
	if l.started {
		l.mu.Unlock()
		return
	}
	l.started = true
	work := l.work
	l.running.Add(1)
	defer l.running.Done()
	l.mu.Unlock()
	for _, w := range work {
		w()
	}
}

// cancel makes run do nothing from now on (Errand is quitting), and
// waits for a run under way to end.
func (l *lateStart) cancel() {
	l.mu.Lock()
	l.started = true
	l.mu.Unlock()
	l.running.Wait()
}

// lateMCP starts the stored MCP servers on the late start, and offers
// their tools to the runner: a task that asks for them before then
// starts them itself and waits, up to mcpStartWait, for their first
// start to end.
type lateMCP struct {
	m     *mcp.Manager
	once  sync.Once
	up    chan struct{} // closed when the first start of every server has ended
	begin func()        // reads the stored servers and starts them
	wait  time.Duration // how long a task waits for up (mcpStartWait)
}

func newLateMCP(m *mcp.Manager, st mcpStore, env *secrets.Store) *lateMCP {
	l := &lateMCP{m: m, up: make(chan struct{}), wait: mcpStartWait}
	l.begin = func() {
		ctx, cancel := callCtx()
		servers, err := st.MCPServers(ctx)
		cancel()
		if err != nil {
			slog.Error("read MCP servers", "err", err)
		}
		m.Set(withEnv(servers, env))
		go func() {
			defer close(l.up)
			ctx, cancel := context.WithTimeout(context.Background(), l.wait)
			defer cancel()
			for _, s := range servers {
				_, _ = m.Wait(ctx, s.ID)
			}
		}()
	}
	return l
}

// start starts the servers, the first time it is called.
func (l *lateMCP) start() { l.once.Do(l.begin) }

// Generation is the manager's: cheap, asked at every step.
func (l *lateMCP) Generation() uint64 { return l.m.Generation() }

// Tools are the manager's, once the servers' first start has ended (or
// the wait has passed).
func (l *lateMCP) Tools() ([]tools.Tool, uint64) {
	l.start()
	select {
	case <-l.up:
	case <-time.After(l.wait):
	}
	return l.m.Tools()
}
