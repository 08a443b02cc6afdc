package app

import (
	"context"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWaits replaces idleRelease's timer: each wait it starts is kept,
// and the test ends it by calling it.
func fakeWaits(i *idleRelease) *[]func() {
	var waits []func()
	i.afterFunc = func(d time.Duration, f func()) *time.Timer {
		waits = append(waits, f)
		return time.NewTimer(time.Hour)
	}
	return &waits
}

// Memory is given back once the tasks stop working and none has worked
// for the wait; a task at work when it ends, or a task still at work,
// keeps it.
func TestMemoryIsGivenBackWhenTheTasksStopWorking(t *testing.T) {
	released, working := 0, 0
	i := newIdleRelease(func() { released++ })
	waits := fakeWaits(i)

	i.taskUpdated(chat.Task{Status: chat.StatusCompleted})
	require.Len(t, *waits, 1)
	(*waits)[0]()
	assert.Zero(t, released, "before the runner is there, nothing is known to be idle")

	i.count(func() int { return working })
	i.taskUpdated(chat.Task{Status: chat.StatusRunning})
	assert.Len(t, *waits, 1, "a task at work starts no wait")

	working = 1
	i.taskUpdated(chat.Task{Status: chat.StatusWaitingUser})
	require.Len(t, *waits, 2)
	(*waits)[1]()
	assert.Zero(t, released, "another task is at work when the wait ends")

	working = 0
	i.taskUpdated(chat.Task{Status: chat.StatusCancelled})
	require.Len(t, *waits, 3)
	(*waits)[2]()
	assert.Equal(t, 1, released, "no task at work: given back")
	require.Len(t, *waits, 4, "and a wait to give back once more")
	(*waits)[3]()
	assert.Equal(t, 2, released, "still no task at work: given back again")
	assert.Len(t, *waits, 4, "twice at most")

	i.stop()
	i.taskUpdated(chat.Task{Status: chat.StatusCompleted})
	assert.Len(t, *waits, 4, "quitting: no wait starts")
}

// A task that stops between the first release and the second starts the
// waits over: the second wait of the earlier stop is not kept.
func TestATaskStoppingAfterTheFirstReleaseStartsTheWaitsOver(t *testing.T) {
	released := 0
	i := newIdleRelease(func() { released++ })
	waits := fakeWaits(i)
	i.count(func() int { return 0 })

	i.taskUpdated(chat.Task{Status: chat.StatusCompleted})
	(*waits)[0]()
	require.Len(t, *waits, 2)
	i.taskUpdated(chat.Task{Status: chat.StatusCompleted})
	require.Len(t, *waits, 3)
	(*waits)[2]()
	assert.Equal(t, 2, released)
	require.Len(t, *waits, 4, "the new stop's second wait")
}

// The window is asked to give back its memory once it is up, and only
// while no task works: its release stops the page for a moment, which a
// streaming reply would show.
func TestTheWindowGivesBackMemoryOnlyWhileNoTaskWorks(t *testing.T) {
	asked, working := 0, 1
	a := &App{idle: newIdleRelease(func() {}), events: &bridge{}, releaseWindow: func(context.Context) { asked++ }}
	a.idle.count(func() int { return working })
	ctx := context.Background()

	working = 0
	a.releaseMemory()
	assert.Zero(t, asked, "no window yet")
	a.events.attach(ctx)
	working = 1
	a.releaseMemory()
	assert.Zero(t, asked, "a task at work")
	working = 0
	a.releaseMemory()
	assert.Equal(t, 1, asked, "the window is up and nothing works")
}
