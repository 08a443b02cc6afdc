package agent

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
)

// errEnded is returned by a run's writes once the task has ended: the loop
// takes it as the signal to unwind.
var errEnded = errors.New("task has ended")

// run is one task in progress. mu serialises every write the task makes,
// from the loop, the stream flusher and Stop alike; once done is set, no
// write gets through.
type run struct {
	r      *Runner
	ctx    context.Context // the loop's; Stop cancels it
	cancel context.CancelFunc
	// inbox carries the person's decisions (an answer, an approval, "go
	// on") to the loop; deliver puts them there only while the task waits
	// for that kind.
	inbox    chan decision
	ws       *tools.Workspace // the loop goroutine's own
	provider llm.Provider

	mu            sync.Mutex
	task          chat.Task
	done          bool
	approvedTools map[string]bool // "approve for this task"
}

type decisionKind int

const (
	decisionAnswer decisionKind = iota + 1
	decisionApprove
	decisionDeny
	decisionProceed
)

type decision struct {
	kind    decisionKind
	text    string // the answer, or the reason for a denial
	forTask bool   // approve this tool for the rest of the task
}

func newRun(r *Runner, t chat.Task, cancel context.CancelFunc) *run {
	return &run{r: r, task: t, cancel: cancel, inbox: make(chan decision, 1), approvedTools: map[string]bool{}}
}

// storeCtx is the context of the run's writes: never the task's own, which
// Stop cancels, so the final state is always written.
func storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

func (rn *run) snapshot() chat.Task {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.task
}

// update changes the task, stores it and publishes it.
func (rn *run) update(change func(t *chat.Task)) error { return rn.record(change) }

// newMessage returns a message of this task with a fresh id.
func (rn *run) newMessage(role chat.Role, content string) chat.Message {
	t := rn.snapshot()
	return chat.Message{
		ID:             uuid.NewString(),
		ConversationID: t.ConversationID,
		TaskID:         t.ID,
		Role:           role,
		Content:        content,
		Step:           t.StepCount,
		CreatedAt:      clock(),
	}
}

// add stores a new message and publishes it.
func (rn *run) add(m chat.Message) (chat.Message, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return m, errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := rn.r.opts.Store.AddMessage(ctx, m)
	if err != nil {
		return m, err
	}
	rn.r.opts.Events.MessageStored(stored)
	return stored, nil
}

// appendText stores streamed text at the end of a message and publishes it
// as a delta.
func (rn *run) appendText(id, text string) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	a, err := rn.r.opts.Store.AppendContent(ctx, id, text)
	if err != nil {
		return err
	}
	rn.r.opts.Events.MessageDelta(Delta{
		ConversationID: a.ConversationID, TaskID: a.TaskID, MessageID: id,
		Offset: a.Offset, Text: text, Rev: a.Rev,
	})
	return nil
}

// replace stores a message's final content and tool calls and publishes it.
func (rn *run) replace(m chat.Message) (chat.Message, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return m, errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := rn.r.opts.Store.UpdateMessage(ctx, m)
	if err != nil {
		return m, err
	}
	rn.r.opts.Events.MessageStored(stored)
	return stored, nil
}

// finish ends the task with status, unless it has already ended, and reports
// whether this call ended it. Open tool calls get results and the notice (if
// any) is stored with the final state, in one transaction.
func (rn *run) finish(status chat.TaskStatus, errMsg, notice string) (bool, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return false, nil
	}
	rn.done = true
	// The conversation is free once the final state is stored, before
	// anyone hears of it: a client seeing "completed" may start anew.
	defer rn.r.release(rn)
	ctx, cancel := storeCtx()
	defer cancel()
	final := endTask(rn.task, status, errMsg)
	final.Rev++
	msgs, err := rn.r.opts.Store.TaskMessages(ctx, final.ID)
	if err != nil {
		return true, err
	}
	stored, err := rn.r.opts.Store.FinishTask(ctx, final, closingMessages(final, msgs, notice))
	if err != nil {
		return true, err
	}
	rn.task = final
	rn.r.release(rn)
	for _, m := range stored {
		rn.r.opts.Events.MessageStored(m)
	}
	rn.r.opts.Events.TaskUpdated(final)
	return true, nil
}

// deliver hands the person's decision to the loop if the task waits for
// one with the given status (and, for approvals, on that call).
func (rn *run) deliver(want chat.TaskStatus, callID string, d decision) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	t := rn.task
	if rn.done || t.Status != want {
		return chat.Errorf(chat.CodeConflict, "the task is not %s (it is %s)", waitingFor(want), t.Status)
	}
	if want == chat.StatusWaitingApproval && (t.PendingApproval == nil || t.PendingApproval.CallID != callID) {
		return chat.Errorf(chat.CodeConflict, "that tool call is not the one waiting for approval")
	}
	select {
	case rn.inbox <- d:
		return nil
	default:
		return chat.Errorf(chat.CodeConflict, "the task has already been answered")
	}
}

func waitingFor(s chat.TaskStatus) string {
	switch s {
	case chat.StatusWaitingUser:
		return "waiting for an answer"
	case chat.StatusWaitingApproval:
		return "waiting for an approval"
	default:
		return "paused"
	}
}

// record applies change to the task and stores it together with new
// messages in one transaction, then publishes both.
func (rn *run) record(change func(t *chat.Task), msgs ...chat.Message) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return errEnded
	}
	next := rn.task
	change(&next)
	next.Rev++
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := rn.r.opts.Store.Record(ctx, next, msgs)
	if err != nil {
		return err
	}
	rn.task = next
	for _, m := range stored {
		rn.r.opts.Events.MessageStored(m)
	}
	rn.r.opts.Events.TaskUpdated(next)
	return nil
}

// suspend stops the run for a shutdown (see Runner.Shutdown).
func (rn *run) suspend() error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return nil
	}
	rn.done = true
	rn.cancel()
	defer rn.r.release(rn)
	t := rn.task
	if waits(t.Status) {
		return nil
	}
	ctx, cancel := storeCtx()
	defer cancel()
	msgs, err := rn.r.opts.Store.TaskMessages(ctx, t.ID)
	if err != nil {
		return err
	}
	t, closing := interruptTask(t, msgs)
	t.Rev++
	stored, err := rn.r.opts.Store.FinishTask(ctx, t, closing)
	if err != nil {
		return err
	}
	rn.task = t
	for _, m := range stored {
		rn.r.opts.Events.MessageStored(m)
	}
	rn.r.opts.Events.TaskUpdated(t)
	return nil
}
