package app

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// A notice is a desktop notification about a task.
type notice struct {
	ConversationID string
	Title, Body    string
}

// desktop is where notices and the window title go (the Wails runtime in
// the app; a recorder in tests).
type desktop interface {
	notify(n notice) error
	setTitle(title string)
}

// notifier tells the person when a task they are not looking at ends or
// needs them — completed, failed, asking, waiting for an approval, paused
// by a limit — with a desktop notification, unless the setting turns them
// off; and keeps in the window title how many tasks wait for them
// ("Errand (2)"; "Errand" when none does).
type notifier struct {
	enabled func() bool            // the setting
	title   func(id string) string // a conversation's title
	notices chan notice            // to the sender

	mu       sync.Mutex
	desk     desktop                    // nil until the window exists
	viewing  string                     // the conversation on screen
	focused  bool                       // whether the window has the focus
	statuses map[string]chat.TaskStatus // each unfinished task's last status
	shown    string                     // the window title last set
}

func newNotifier(enabled func() bool, title func(string) string) *notifier {
	return &notifier{enabled: enabled, title: title, notices: make(chan notice, 32),
		statuses: map[string]chat.TaskStatus{}}
}

// waitsForPerson: a task in this status waits for the person (as the
// conversation list's "needs input" says).
func waitsForPerson(s chat.TaskStatus) bool {
	switch s {
	case chat.StatusWaitingUser, chat.StatusWaitingApproval, chat.StatusPaused, chat.StatusInterrupted:
		return true
	}
	return false
}

// what a notification says when a task comes to this status; "" for a
// status that does not notify (working, stopped by the person, cut off by
// a quit).
func headline(s chat.TaskStatus) string {
	switch s {
	case chat.StatusCompleted:
		return "Task done"
	case chat.StatusError:
		return "Task failed"
	case chat.StatusWaitingUser:
		return "Errand asks you"
	case chat.StatusWaitingApproval:
		return "Errand needs your approval"
	case chat.StatusPaused:
		return "Task paused: it needs your decision"
	}
	return ""
}

// attach starts telling the desktop, with the unfinished tasks as they
// stand (those a previous run left waiting count in the title at once).
func (n *notifier) attach(d desktop, active []chat.Task) {
	n.mu.Lock()
	n.desk = d
	for _, t := range active {
		n.statuses[t.ID] = t.Status
	}
	n.mu.Unlock()
	n.refreshTitle()
}

// view records what the person looks at: the open conversation, and
// whether the window has the focus.
func (n *notifier) view(conversationID string, focused bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.viewing, n.focused = conversationID, focused
}

// taskUpdated decides about one stored change of a task.
func (n *notifier) taskUpdated(t chat.Task) {
	n.mu.Lock()
	prev, known := n.statuses[t.ID]
	if t.Status.Terminal() {
		delete(n.statuses, t.ID)
	} else {
		n.statuses[t.ID] = t.Status
	}
	looking := n.focused && n.viewing == t.ConversationID
	n.mu.Unlock()
	n.refreshTitle()
	if known && prev == t.Status {
		return
	}
	head := headline(t.Status)
	if head == "" || looking || !n.enabled() {
		return
	}
	body := n.title(t.ConversationID)
	if t.Status == chat.StatusWaitingUser && t.PendingQuestion != "" {
		body += ": " + t.PendingQuestion
	} else if t.Status == chat.StatusError && t.ErrorMessage != "" {
		body += ": " + t.ErrorMessage
	}
	select {
	case n.notices <- notice{ConversationID: t.ConversationID, Title: head, Body: clip(body, 200)}:
	default: // the desktop is not keeping up: this one is dropped
	}
}

func (n *notifier) refreshTitle() {
	n.mu.Lock()
	defer n.mu.Unlock()
	waiting := 0
	for _, s := range n.statuses {
		if waitsForPerson(s) {
			waiting++
		}
	}
	title := windowTitle(waiting)
	if n.desk == nil || title == n.shown {
		return
	}
	n.shown = title
	n.desk.setTitle(title)
}

// windowTitle is "Errand", or "Errand (n)" while n tasks wait for the person.
func windowTitle(waiting int) string {
	if waiting == 0 {
		return "Errand"
	}
	return fmt.Sprintf("Errand (%d)", waiting)
}

// send delivers notices until done is closed. A desktop without a
// notification service is said once in the log; nothing else changes.
func (n *notifier) send(done <-chan struct{}) {
	var failed sync.Once
	for {
		select {
		case <-done:
			return
		case nt := <-n.notices:
			n.mu.Lock()
			d := n.desk
			n.mu.Unlock()
			if d == nil {
				continue
			}
			if err := d.notify(nt); err != nil {
				failed.Do(func() { slog.Warn("desktop notifications are unavailable", "err", err) })
			}
		}
	}
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
