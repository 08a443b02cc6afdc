package agent

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The process's main thread stays with the tests' main goroutine, as the
// app's stays with GTK's (main.go): Go cannot end its main thread, so a
// reader that ran there would live on, and could not be seen to end.
func init() { runtime.LockOSThread() }

// threadNice is the calling OS thread's nice value.
func threadNice(t *testing.T) int {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	require.NoError(t, err)
	return 20 - raw
}

func TestAModelsStreamIsReadBehindTheWindow(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := threadNice(t)
	var reader, readerTid int
	resp, err := behindWindow(func() (llm.Response, error) {
		reader, readerTid = threadNice(t), syscall.Gettid()
		return llm.Response{Content: "read"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "read", resp.Content)
	assert.Equal(t, min(caller+readerNice, 19), reader, "the reading thread yields to the window's")
	assert.Equal(t, caller, threadNice(t), "the caller's thread keeps its priority")

	// The lowered thread ends with its goroutine: no goroutine after it
	// can run at its priority. (It ends just after the goroutine hands
	// back its result; a thread kept for others would never end.)
	thread := fmt.Sprintf("/proc/self/task/%d", readerTid)
	require.Eventually(t, func() bool {
		_, err := os.Stat(thread)
		return os.IsNotExist(err)
	}, 10*time.Second, time.Millisecond, "the reading thread %d (process %d) ended", readerTid, os.Getpid())
}

func TestAPanicWhileReadingAStreamReachesTheTasksLoop(t *testing.T) {
	assert.PanicsWithValue(t, "the adapter broke", func() {
		_, _ = behindWindow(func() (llm.Response, error) { panic("the adapter broke") })
	})
}

// storeNices records the nice value of the thread each streamed message
// and delta is published from (after it is stored, under the same lock).
type storeNices struct {
	Events
	t     *testing.T
	mu    sync.Mutex
	nices []int
}

func (e *storeNices) record() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := threadNice(e.t)
	e.mu.Lock()
	e.nices = append(e.nices, n)
	e.mu.Unlock()
}

func (e *storeNices) MessageStored(m chat.Message) {
	if m.Streaming {
		e.record()
	}
	e.Events.MessageStored(m)
}

func (e *storeNices) MessageDelta(d Delta) {
	e.record()
	e.Events.MessageDelta(d)
}

func TestAStreamedReplyIsStoredAtTheWindowsPriority(t *testing.T) {
	runtime.LockOSThread()
	caller := threadNice(t)
	runtime.UnlockOSThread()
	nices := &storeNices{t: t}
	long := strings.Repeat("A long answer, streamed in many pieces. ", 40)
	h := newHarness(t, script(t,
		compat.Reply{Text: long, ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{flush: time.Nanosecond, events: func(e Events) Events {
		nices.Events = e
		return nices
	}})
	conv := h.conversation()
	task := h.start(conv, "Answer at length")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	nices.mu.Lock()
	defer nices.mu.Unlock()
	require.Greater(t, len(nices.nices), 2, "the reply was stored in pieces")
	for i, n := range nices.nices {
		// A Stop waits for the run's lock, which a store of the stream
		// holds: on the reader's lowered thread, it would wait behind the
		// window's threads.
		assert.Equal(t, caller, n, "piece %d of the reply is stored at the process's priority", i)
	}
}
