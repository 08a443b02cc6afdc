package app

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a desktop that keeps what it was told.
type recorder struct {
	mu      sync.Mutex
	notices []notice
	titles  []string
	fail    error
}

func (r *recorder) notify(n notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, n)
	return r.fail
}

func (r *recorder) setTitle(t string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.titles = append(r.titles, t)
}

func (r *recorder) title() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.titles) == 0 {
		return ""
	}
	return r.titles[len(r.titles)-1]
}

// queued takes the notices the notifier decided to send, without a sender.
func queued(n *notifier) []notice {
	var out []notice
	for {
		select {
		case nt := <-n.notices:
			out = append(out, nt)
		default:
			return out
		}
	}
}

func testNotifier(on *bool) (*notifier, *recorder) {
	n := newNotifier(func() bool { return *on }, func(id string) string { return "Title of " + id })
	r := &recorder{}
	n.attach(r, nil)
	return n, r
}

func tk(id, conv string, s chat.TaskStatus) chat.Task {
	return chat.Task{ID: id, ConversationID: conv, Status: s}
}

func TestNotificationsForTasksTheyAreNotLookingAt(t *testing.T) {
	t.Parallel()
	on := true
	n, _ := testNotifier(&on)
	n.view("open", true)

	// Working does not notify; ending and needing the person do.
	for _, s := range []chat.TaskStatus{chat.StatusRunning, chat.StatusThinking, chat.StatusToolExecuting} {
		n.taskUpdated(tk("t1", "other", s))
	}
	assert.Empty(t, queued(n))
	n.taskUpdated(chat.Task{ID: "t1", ConversationID: "other", Status: chat.StatusWaitingUser, PendingQuestion: "Which city?"})
	n.taskUpdated(tk("t1", "other", chat.StatusWaitingUser)) // the same status again: once
	n.taskUpdated(tk("t1", "other", chat.StatusWaitingApproval))
	n.taskUpdated(tk("t1", "other", chat.StatusPaused))
	n.taskUpdated(chat.Task{ID: "t1", ConversationID: "other", Status: chat.StatusError, ErrorMessage: "the model server is down"})
	n.taskUpdated(tk("t2", "other", chat.StatusCompleted))
	n.taskUpdated(tk("t3", "other", chat.StatusCancelled)) // the person stopped it
	n.taskUpdated(tk("t4", "other", chat.StatusInterrupted))
	got := queued(n)
	require.Len(t, got, 5)
	assert.Equal(t, notice{ConversationID: "other", Title: "Errand asks you", Body: "Title of other: Which city?"}, got[0])
	assert.Equal(t, "Errand needs your approval", got[1].Title)
	assert.Equal(t, "Task paused: it needs your decision", got[2].Title)
	assert.Equal(t, notice{ConversationID: "other", Title: "Task failed", Body: "Title of other: the model server is down"}, got[3])
	assert.Equal(t, "Task done", got[4].Title)

	// Not for the conversation on screen while the window has the focus…
	n.taskUpdated(tk("t5", "open", chat.StatusCompleted))
	assert.Empty(t, queued(n))
	// …but yes when the window is in the background.
	n.view("open", false)
	n.taskUpdated(tk("t6", "open", chat.StatusCompleted))
	assert.Len(t, queued(n), 1)

	// The setting turns them off.
	on = false
	n.taskUpdated(tk("t7", "other", chat.StatusCompleted))
	assert.Empty(t, queued(n))
}

func TestWindowTitleCountsTasksThatWaitForThePerson(t *testing.T) {
	t.Parallel()
	on := false
	n := newNotifier(func() bool { return on }, func(string) string { return "" })
	r := &recorder{}
	n.attach(r, []chat.Task{tk("old", "c0", chat.StatusInterrupted)}) // left by the last run
	assert.Equal(t, "Errand (1)", r.title())
	n.taskUpdated(tk("a", "c1", chat.StatusThinking))
	assert.Equal(t, "Errand (1)", r.title())
	n.taskUpdated(tk("a", "c1", chat.StatusWaitingUser))
	n.taskUpdated(tk("b", "c2", chat.StatusWaitingApproval))
	assert.Equal(t, "Errand (3)", r.title())
	n.taskUpdated(tk("a", "c1", chat.StatusRunning))
	n.taskUpdated(tk("b", "c2", chat.StatusCancelled))
	n.taskUpdated(tk("old", "c0", chat.StatusCancelled))
	assert.Equal(t, "Errand", r.title(), "exactly Errand when nothing waits")
	assert.Equal(t, []string{"Errand (1)", "Errand (2)", "Errand (3)", "Errand (2)", "Errand (1)", "Errand"}, r.titles, "set only when it changes")
}

// Without a notification service nothing breaks: the notice is dropped.
func TestNoNotificationServiceBreaksNothing(t *testing.T) {
	t.Parallel()
	on := true
	n, r := testNotifier(&on)
	r.fail = errors.New("no notification service on D-Bus")
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() { n.send(done); close(stopped) }()
	n.taskUpdated(tk("a", "c", chat.StatusCompleted))
	n.taskUpdated(tk("b", "c", chat.StatusCompleted))
	require.Eventually(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.notices) == 2
	}, time.Minute, time.Millisecond)
	close(done)
	<-stopped
}

// The setting is on by default and can be saved off.
func TestNotificationsSettingIsOnByDefault(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	st, err := a.Settings.GetSettings()
	require.NoError(t, err)
	assert.True(t, st.Notifications)
	st.Notifications = false
	_, err = a.Settings.SaveSettings(st)
	require.NoError(t, err)
	assert.False(t, a.notifier.enabled())
}
