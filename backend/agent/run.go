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
	r        *Runner
	ctx      context.Context // the loop's; Stop cancels it
	cancel   context.CancelFunc
	exited   chan struct{}    // closed when the loop's goroutine returns
	ws       *tools.Workspace // the loop goroutine's own
	provider llm.Provider
	def      chat.AgentDefinition // the task's agent
	win      *window              // the model's view of the conversation
	// fresh: the task was stored just now, by StartTask or the like; it
	// has made no tool calls to answer.
	fresh bool

	mu            sync.Mutex
	task          chat.Task
	done          bool
	pending       *wait    // what the task waits for the person to decide, if anything
	restored      *wait    // the wait a restart gave back, until the loop reaches it
	verdict       *verdict // the reflection's answer, once reflect was called
	imagesNoticed bool     // the person was told the model does not take images
	endReason     string   // why the agent ends the conversation (end_conversation), if it does
	// outside is what the model calls of a run with no task behind it
	// (Compact now, a variation) used and cost: its caller adds it to the
	// conversation's totals.
	outside     chat.Usage
	outsideCost float64
	// ephemeral runs keep their summaries in their window and store none
	// (a variation's: its reply may be anywhere on the branch).
	ephemeral bool
}

// pay adds what a model call used, and its cost at the model's price, to
// the task (where the spend limit counts it), or, when no task is behind
// the run, to what it used outside one.
func (rn *run) pay(ctx context.Context, u chat.Usage) error {
	cost := rn.r.settings(ctx).Prices[rn.provider.Model()].Cost(u)
	if rn.snapshot().ID == "" {
		rn.mu.Lock()
		rn.outside, rn.outsideCost = rn.outside.Add(u), rn.outsideCost+cost
		rn.mu.Unlock()
		return nil
	}
	return rn.update(func(t *chat.Task) {
		t.Usage = t.Usage.Add(u)
		t.CostUSD += cost
	})
}

// paidOutside is what pay counted outside a task.
func (rn *run) paidOutside() (chat.Usage, float64) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.outside, rn.outsideCost
}

func newRun(r *Runner, t chat.Task, cancel context.CancelFunc) *run {
	return &run{r: r, task: t, cancel: cancel, exited: make(chan struct{}), win: newWindow(r.opts.Attachments)}
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
	return rn.write(m, rn.r.opts.Store.AddMessage)
}

// write stores m with put and publishes what was stored, unless the run
// has ended.
func (rn *run) write(m chat.Message, put func(context.Context, chat.Message) (chat.Message, error)) (chat.Message, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return m, errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := put(ctx, m)
	if err != nil {
		return m, err
	}
	rn.win.observe(stored)
	rn.r.opts.Events.MessageStored(stored)
	return stored, nil
}

// appendChunk stores streamed text, or reasoning, at the end of a
// message's and publishes it as a delta.
func (rn *run) appendChunk(id, text string, reasoning bool) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	appendTo := rn.r.opts.Store.AppendContent
	if reasoning {
		appendTo = rn.r.opts.Store.AppendReasoning
	}
	a, err := appendTo(ctx, id, text)
	if err != nil {
		return err
	}
	rn.r.opts.Events.MessageDelta(Delta{
		ConversationID: a.ConversationID, TaskID: a.TaskID, MessageID: id,
		Offset: a.Offset, Text: text, Rev: a.Rev, Reasoning: reasoning,
	})
	return nil
}

// replace stores a message's final content and tool calls and publishes it.
func (rn *run) replace(m chat.Message) (chat.Message, error) {
	return rn.write(m, rn.r.opts.Store.UpdateMessage)
}

// record applies change to the task and stores it together with new
// messages in one transaction, then publishes both.
func (rn *run) record(change func(t *chat.Task), msgs ...chat.Message) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.recordLocked(change, msgs...)
}

// recordLocked is record with rn.mu held.
func (rn *run) recordLocked(change func(t *chat.Task), msgs ...chat.Message) error {
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
	rn.win.observe(stored...)
	for _, m := range stored {
		rn.r.opts.Events.MessageStored(m)
	}
	rn.r.opts.Events.TaskUpdated(next)
	return nil
}
