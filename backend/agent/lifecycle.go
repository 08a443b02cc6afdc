package agent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// This file holds what happens to tasks across the life of Errand:
// quitting, starting again after a quit or a crash, resuming, retrying.

// Retry resumes a task that ended with an error, from its last completed
// step: the stored transcript is its memory, so finished tool calls are not
// run again. It fails with CodeConflict for a task that did not fail or
// whose conversation is busy.
func (r *Runner) Retry(ctx context.Context, taskID string) (chat.Task, error) {
	t, err := r.opts.Store.GetTask(ctx, taskID)
	if err != nil {
		return chat.Task{}, err
	}
	if t.Status != chat.StatusError {
		return chat.Task{}, chat.Errorf(chat.CodeConflict, "only a task that failed can be retried (this one is %s)", t.Status)
	}
	t.Status = chat.StatusRunning
	t.ErrorMessage = ""
	t.EndedAt = nil
	return r.resume(ctx, t)
}

// resume stores t in its new, active state and runs its loop again, with
// the conversation's model as it is now (a fixed key is the usual reason to
// retry).
func (r *Runner) resume(ctx context.Context, t chat.Task) (chat.Task, error) {
	def := r.agentOf(ctx, t.AgentID)
	provider, err := r.provider(ctx, t.ConversationID, def.Model)
	if err != nil {
		return chat.Task{}, err
	}
	t.Model = provider.Model()
	t.Rev++
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return chat.Task{}, ErrShuttingDown
	}
	if r.byConv[t.ConversationID] != nil {
		r.mu.Unlock()
		return chat.Task{}, chat.Errorf(chat.CodeConflict,
			"this conversation already has a task in progress; stop it or wait for it to finish")
	}
	if err := r.opts.Store.UpdateTask(ctx, t); err != nil {
		r.mu.Unlock()
		return chat.Task{}, err
	}
	rn := r.launch(t, provider, def)
	rn.restore(t)
	r.mu.Unlock()
	r.opts.Events.TaskUpdated(t)
	rn.start()
	return t, nil
}

// Shutdown suspends every task so that the next start of Errand can pick
// it up: a task waiting for the person (an answer, an approval, a paused
// limit) stays stored as it is and keeps waiting; a task that was thinking or
// running a tool is stored as interrupted, its running tool is told so, and
// its tool processes are killed with its context. It then waits for the
// goroutines until ctx is done.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	runs := make([]*run, 0, len(r.runs))
	for _, rn := range r.runs {
		runs = append(runs, rn)
	}
	r.mu.Unlock()
	for _, rn := range runs {
		if err := rn.suspend(); err != nil {
			slog.Error("suspend task", "task", rn.snapshot().ID, "err", err)
		}
	}
	r.mu.Lock()
	alive := make([]*run, 0, len(r.alive))
	for rn := range r.alive {
		alive = append(alive, rn)
	}
	r.mu.Unlock()
	for _, rn := range alive {
		select {
		case <-rn.exited:
		case <-ctx.Done():
			return errors.New("agent tasks did not stop in time")
		}
	}
	return nil
}

// Recover puts every task a previous run of Errand left unfinished (it
// closed, crashed or was killed) in a truthful state: one waiting for the
// person waits again, with its question or approval card; one that was
// thinking or running a tool becomes interrupted, and a tool call that had
// started gets a result saying it was cut off — it is never re-run
// silently. Call it once, before StartTask. It returns how many tasks it
// interrupted and how many wait again.
func (r *Runner) Recover(ctx context.Context) (interrupted, waiting int, err error) {
	active, err := r.opts.Store.ActiveTasks(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, t := range active {
		switch {
		case t.Status == chat.StatusInterrupted:
		case t.Status == chat.StatusWaitingUser && t.CurrentCallID != "":
			// A running tool's question (an MCP server's elicitation):
			// the call it belonged to is gone with the last run, and is
			// never re-run silently to ask again.
			if _, err := r.settle(ctx, t, interruptTask, nil); err != nil {
				return interrupted, waiting, err
			}
			interrupted++
		case t.Status.Waiting():
			if _, err := r.resume(ctx, t); err != nil {
				return interrupted, waiting, err
			}
			waiting++
		default:
			if _, err := r.settle(ctx, t, interruptTask, nil); err != nil {
				return interrupted, waiting, err
			}
			interrupted++
		}
	}
	return interrupted, waiting, nil
}

// interruptTask returns t as interrupted, and the messages that say so: a
// result for the tool call that was running, if it has none, and a notice.
// Calls that had not started stay open; Resume runs them (asking for
// approval again), Dismiss closes them.
func interruptTask(t chat.Task, msgs []chat.Message) (chat.Task, []chat.Message) {
	now := clock()
	var out []chat.Message
	for _, c := range openToolCalls(msgs) {
		if c.ID == t.CurrentCallID {
			out = append(out, chat.Message{
				ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
				Role: chat.RoleTool, ToolCallID: c.ID, ToolName: c.Name, IsError: true, Step: t.StepCount, CreatedAt: now,
				Outcome: chat.OutcomeCutOff,
				Content: "Interrupted: Errand closed while this tool was running, so it may have done part of its work. Check its effects before running it again.",
			})
		}
	}
	out = append(out, chat.Message{
		ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
		Role: chat.RoleSystem, Content: "Interrupted when Errand closed", Step: t.StepCount, CreatedAt: now,
	})
	t.Status = chat.StatusInterrupted
	t.CurrentTool, t.CurrentCallID = "", ""
	t.PendingQuestion, t.PendingChoices, t.PendingApproval, t.PauseReason = "", nil, nil, ""
	t.PendingMultiple, t.PendingAllowOther, t.PendingFields, t.Input = false, false, nil, nil
	return t, out
}

// Resume continues an interrupted task from its last completed step.
func (r *Runner) Resume(ctx context.Context, taskID string) (chat.Task, error) {
	t, err := r.opts.Store.GetTask(ctx, taskID)
	if err != nil {
		return chat.Task{}, err
	}
	if t.Status != chat.StatusInterrupted {
		return chat.Task{}, chat.Errorf(chat.CodeConflict, "only an interrupted task can be resumed (this one is %s)", t.Status)
	}
	t.Status = chat.StatusRunning
	return r.resume(ctx, t)
}

// Dismiss ends an interrupted task for good.
func (r *Runner) Dismiss(ctx context.Context, taskID string) (chat.Task, error) {
	t, err := r.opts.Store.GetTask(ctx, taskID)
	if err != nil {
		return chat.Task{}, err
	}
	if t.Status != chat.StatusInterrupted {
		return chat.Task{}, chat.Errorf(chat.CodeConflict, "only an interrupted task can be dismissed (this one is %s)", t.Status)
	}
	if err := r.finishOrphan(ctx, t, chat.StatusCancelled, "", "Dismissed"); err != nil {
		return chat.Task{}, err
	}
	return r.opts.Store.GetTask(ctx, taskID)
}

// finishOrphan ends a stored task that no goroutine runs.
func (r *Runner) finishOrphan(ctx context.Context, t chat.Task, status chat.TaskStatus, errMsg, notice string) error {
	_, err := r.settle(ctx, t, ending(status, errMsg, notice), nil)
	return err
}

// clock is the time as the store keeps it (milliseconds, UTC), so that what
// is published equals what is stored.
func clock() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// endTask returns t in its final state.
func endTask(t chat.Task, status chat.TaskStatus, errMsg string) chat.Task {
	now := clock()
	t.Status = status
	t.EndedAt = &now
	t.ErrorMessage = errMsg
	t.PendingQuestion = ""
	t.PendingChoices = nil
	t.PendingApproval = nil
	t.PauseReason = ""
	t.CurrentTool = ""
	t.CurrentCallID = ""
	// What was allowed for the task ends with it: a Retry asks again.
	t.NetworkAllowed, t.ApprovedTools = false, nil
	return t
}

// closingMessages are the messages that end a task: a result for every
// tool call still open, so the transcript stays valid, and a notice. They
// are dated at the task's end (t.EndedAt): the notice of a stopped or
// failed task is where the transcript shows the files it changed.
func closingMessages(t chat.Task, msgs []chat.Message, notice string) []chat.Message {
	now := *t.EndedAt
	var out []chat.Message
	result, outcome := "Cancelled: the task was stopped before this tool call finished.", chat.OutcomeStopped
	if t.Status != chat.StatusCancelled {
		result, outcome = "Interrupted: the task ended before this tool call finished.", chat.OutcomeCutOff
	}
	for _, c := range openToolCalls(msgs) {
		out = append(out, chat.Message{
			ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
			Role: chat.RoleTool, ToolCallID: c.ID, ToolName: c.Name,
			Content: result, IsError: true, Outcome: outcome, Step: t.StepCount, CreatedAt: now,
		})
	}
	if notice != "" {
		out = append(out, chat.Message{
			ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
			Role: chat.RoleSystem, Content: notice, IsError: t.Status == chat.StatusError, Step: t.StepCount, CreatedAt: now,
		})
	}
	return out
}
