package agent

import (
	"context"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

// endFunc turns a task and its calls (Store.TaskCalls) into its final (or interrupted)
// state and the messages that close it.
type endFunc func(t chat.Task, msgs []chat.Message) (chat.Task, []chat.Message)

// ending is the endFunc of a task that ends with status: a result for every
// tool call still open, and the notice, if any.
func ending(status chat.TaskStatus, errMsg, notice string) endFunc {
	return func(t chat.Task, msgs []chat.Message) (chat.Task, []chat.Message) {
		final := endTask(t, status, errMsg)
		return final, closingMessages(final, msgs, notice)
	}
}

// settle is the one way a task ends (finished, stopped, suspended for a
// quit, or left over from a previous run): it stores the state end gives
// together with the messages that close the task, in one transaction; then
// calls stored, if set, with the stored task; then publishes the task and
// the messages.
func (r *Runner) settle(ctx context.Context, t chat.Task, end endFunc, stored func(chat.Task)) (chat.Task, error) {
	msgs, err := r.opts.Store.TaskCalls(ctx, t.ID)
	if err != nil {
		return t, fmt.Errorf("read the messages of task %s: %w", t.ID, err)
	}
	final, closing := end(t, msgs)
	final.Rev = t.Rev + 1
	done, err := r.opts.Store.FinishTask(ctx, final, closing)
	if err != nil {
		return t, err
	}
	if stored != nil {
		stored(final)
	}
	// The task first: its end is what the person waits to see. The ended
	// streams come without their text (a long reply cut off by Stop is
	// megabytes, which the deltas carried already).
	r.opts.Events.TaskUpdated(final)
	for _, e := range done.Ended {
		r.opts.Events.StreamEnded(e)
	}
	for _, m := range done.Messages {
		r.opts.Events.MessageStored(m)
	}
	return final, nil
}

// end ends the run, unless it has ended already, and reports whether this
// call ended it. pick chooses how from the task's state; a nil endFunc
// leaves the task stored as it is (a task waiting for the person waits
// again at the next start). The conversation is freed once the final state
// is stored, before anyone hears of it: a client seeing "completed" may
// start anew.
func (rn *run) end(pick func(chat.Task) endFunc) (bool, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return false, nil
	}
	rn.done = true
	rn.pending = nil
	end := pick(rn.task)
	if end == nil {
		rn.r.release(rn)
		return true, nil
	}
	ctx, cancel := storeCtx()
	defer cancel()
	released := false
	_, err := rn.r.settle(ctx, rn.task, end, func(final chat.Task) {
		rn.task = final
		rn.r.release(rn)
		released = true
	})
	if !released {
		rn.r.release(rn)
	}
	return true, err
}

// finish ends the task with status and the notice (if any).
func (rn *run) finish(status chat.TaskStatus, errMsg, notice string) (bool, error) {
	return rn.end(func(chat.Task) endFunc { return ending(status, errMsg, notice) })
}

// suspend stops the run for a shutdown (see Runner.Shutdown).
func (rn *run) suspend() error {
	rn.cancel()
	_, err := rn.end(func(t chat.Task) endFunc {
		if t.Status.Waiting() {
			return nil
		}
		return interruptTask
	})
	return err
}
