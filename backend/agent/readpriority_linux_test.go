package agent

import (
	"runtime"
	"syscall"
	"testing"

	"github.com/errand-app/errand/backend/llm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
	var reader int
	resp, err := behindWindow(func() (llm.Response, error) {
		reader = threadNice(t)
		return llm.Response{Content: "read"}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "read", resp.Content)
	assert.Equal(t, min(caller+readerNice, 19), reader, "the reading thread yields to the window's")
	assert.Equal(t, caller, threadNice(t), "the caller's thread keeps its priority")

	// Another goroutine after it runs at the process's priority: the
	// lowered thread went with its goroutine.
	others := make(chan int, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		others <- threadNice(t)
	}()
	assert.Equal(t, caller, <-others)
}

func TestAPanicWhileReadingAStreamReachesTheTasksLoop(t *testing.T) {
	assert.PanicsWithValue(t, "the adapter broke", func() {
		_, _ = behindWindow(func() (llm.Response, error) { panic("the adapter broke") })
	})
}
