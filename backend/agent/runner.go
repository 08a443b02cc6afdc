// Package agent runs Errand's agent tasks: the AgentTaskRunner.
//
// Each task runs its loop in a goroutine of its own, owned by the Runner,
// which keeps the task's cancel func. Every change to a task or its messages
// is stored first and published after (Events), so the frontend never shows
// what the database does not hold. A task ends exactly once: whoever ends it
// first — the loop (completed, error) or Stop (cancelled) — writes the final
// state, and the loop's later writes are dropped.
package agent

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
)

// Delta is streamed text appended to a stored message. Offset is the length
// in bytes of the message's content before Text; a receiver whose copy is not
// that long has missed something and should reload.
type Delta struct {
	ConversationID string `json:"conversationId"`
	TaskID         string `json:"taskId"`
	MessageID      string `json:"messageId"`
	Offset         int    `json:"offset"`
	Text           string `json:"text"`
	Rev            int    `json:"rev"`
}

// Events receives what the runner has stored, in the order it was stored
// for any one task. Implementations must not block for long.
type Events interface {
	TaskUpdated(t chat.Task)
	MessageStored(m chat.Message)
	MessageDelta(d Delta)
	ConversationUpdated(c chat.Conversation)
}

// Options configures a Runner. Store, Events and Provider or Providers
// are required.
type Options struct {
	Store    chat.Store
	Events   Events
	Provider llm.Provider
	// Providers, when set, picks the model for each conversation at the
	// start (or resumption) of each task; it wins over Provider.
	Providers func(ctx context.Context, conversationID string) (llm.Provider, error)
	// FlushInterval is the shortest time between two stored and published
	// pieces of streamed text for one task. Default 1/60 s.
	FlushInterval time.Duration
	// SystemPrompt replaces AgentSystemPrompt.
	SystemPrompt string
	// Tools are offered to the model besides the control tools.
	Tools []tools.Tool
	// Workspace opens the folder a conversation's tools work in. Without
	// it tools run with no workspace and file tools refuse.
	Workspace func(ctx context.Context, conversationID string) (*tools.Workspace, error)
}

// Runner is the AgentTaskRunner. It is safe for concurrent use.
type Runner struct {
	opts     Options
	registry *tools.Registry

	mu     sync.Mutex
	runs   map[string]*run // by task id
	byConv map[string]*run // by conversation id
	closed bool
	wg     sync.WaitGroup
}

// New returns a Runner. It panics if a tool's schema does not compile or two
// tools share a name: a programming error.
func New(opts Options) *Runner {
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = time.Second / 60
	}
	if opts.SystemPrompt == "" {
		opts.SystemPrompt = AgentSystemPrompt
	}
	reg, err := tools.NewRegistry(controlSpecs, opts.Tools)
	if err != nil {
		panic(err)
	}
	return &Runner{opts: opts, registry: reg, runs: map[string]*run{}, byConv: map[string]*run{}}
}

// settings are read from the store each time they matter, so a change
// applies to tasks already running. A store that cannot read them gives
// the defaults: safe ones, that ask before anything writes.
func (r *Runner) settings(ctx context.Context) chat.Settings {
	s, err := r.opts.Store.Settings(ctx)
	if err != nil {
		slog.Error("read settings", "err", err)
		return chat.DefaultSettings()
	}
	return s
}

// ErrShuttingDown is returned by StartTask once Shutdown has begun.
var ErrShuttingDown = chat.Errorf(chat.CodeConflict, "Errand is shutting down")

// StartTask stores a new task for the user's text in the conversation and
// starts working on it in the background. It returns the stored task at
// once. mode selects the agent loop or a single chat reply.
func (r *Runner) StartTask(ctx context.Context, conversationID, text string, mode chat.TaskMode) (chat.Task, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "the message is empty")
	}
	if mode != chat.ModeAgent && mode != chat.ModeChat {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "unknown task mode %q", mode)
	}
	provider, err := r.provider(ctx, conversationID)
	if err != nil {
		return chat.Task{}, err
	}
	now := clock()
	task := chat.Task{
		ID:             uuid.NewString(),
		ConversationID: conversationID,
		Mode:           mode,
		Status:         chat.StatusRunning,
		OriginalPrompt: text,
		StartedAt:      now,
		Model:          provider.Model(),
		Limits:         r.settings(ctx).Limits,
		Rev:            1,
	}
	prompt := chat.Message{
		ID:             uuid.NewString(),
		ConversationID: conversationID,
		TaskID:         task.ID,
		Role:           chat.RoleUser,
		Content:        text,
		CreatedAt:      now,
	}

	// Holding r.mu across the insert makes "one active task per
	// conversation" hold between the store and the runs map.
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return chat.Task{}, ErrShuttingDown
	}
	if other := r.byConv[conversationID]; other != nil {
		r.mu.Unlock()
		return chat.Task{}, chat.Errorf(chat.CodeConflict,
			"this conversation already has a task in progress; stop it or wait for it to finish")
	}
	prompt, err = r.opts.Store.StartTask(ctx, task, prompt)
	if err != nil {
		r.mu.Unlock()
		return chat.Task{}, err
	}
	rn := r.launch(task, provider)
	r.mu.Unlock()

	r.opts.Events.TaskUpdated(task)
	r.opts.Events.MessageStored(prompt)
	if c, err := r.opts.Store.GetConversation(ctx, conversationID); err == nil {
		r.opts.Events.ConversationUpdated(c)
	}
	rn.start()
	return task, nil
}

// provider is the model a task in the conversation talks to.
func (r *Runner) provider(ctx context.Context, conversationID string) (llm.Provider, error) {
	if r.opts.Providers != nil {
		return r.opts.Providers(ctx, conversationID)
	}
	return r.opts.Provider, nil
}

// launch registers a run for a stored task; r.mu must be held. The caller
// publishes what it must, then calls start.
func (r *Runner) launch(t chat.Task, p llm.Provider) *run {
	runCtx, cancel := context.WithCancel(context.Background())
	rn := newRun(r, t, cancel)
	rn.provider = p
	rn.ctx = runCtx
	r.runs[t.ID] = rn
	r.byConv[t.ConversationID] = rn
	r.wg.Add(1)
	return rn
}

// start runs the loop in its own goroutine, which the Runner owns.
func (rn *run) start() {
	go func() {
		defer rn.r.wg.Done()
		defer rn.cancel()
		rn.loop(rn.ctx)
	}()
}

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
	provider, err := r.provider(ctx, t.ConversationID)
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
	rn := r.launch(t, provider)
	r.mu.Unlock()
	r.opts.Events.TaskUpdated(t)
	rn.start()
	return t, nil
}

// StopResult tells what Stop did.
type StopResult struct {
	// Stopped is false when the task had already ended.
	Stopped bool      `json:"stopped"`
	Task    chat.Task `json:"task"`
	Message string    `json:"message"`
}

// Stop cancels a task: its model stream is closed, a pending question is
// released, every tool call left without a result gets a "cancelled" one, and
// the task is stored as cancelled with a "Stopped by user" notice before Stop
// returns. Stopping a task that has already ended changes nothing.
func (r *Runner) Stop(ctx context.Context, taskID string) (StopResult, error) {
	rn := r.lookup(taskID)
	if rn == nil {
		t, err := r.opts.Store.GetTask(ctx, taskID)
		if err != nil {
			return StopResult{}, err
		}
		if t.Active() {
			// Not ours to run (left over from a previous run): end it now.
			if err := r.finishOrphan(ctx, t, chat.StatusCancelled, "", "Stopped by user"); err != nil {
				return StopResult{}, err
			}
			t, err = r.opts.Store.GetTask(ctx, taskID)
			return StopResult{Stopped: true, Task: t, Message: "Stopped"}, err
		}
		return StopResult{Task: t, Message: alreadyEnded(t.Status)}, nil
	}
	rn.cancel()
	ended, err := rn.finish(chat.StatusCancelled, "", "Stopped by user")
	t := rn.snapshot()
	if err != nil {
		return StopResult{Task: t}, err
	}
	if !ended {
		return StopResult{Task: t, Message: alreadyEnded(t.Status)}, nil
	}
	return StopResult{Stopped: true, Task: t, Message: "Stopped"}, nil
}

func alreadyEnded(s chat.TaskStatus) string {
	switch s {
	case chat.StatusCompleted:
		return "The task had already completed"
	case chat.StatusCancelled:
		return "The task had already been stopped"
	default:
		return "The task had already ended with an error"
	}
}

// Respond answers the question a waiting task asked. It fails with
// CodeInvalid for an empty answer and CodeConflict when the task is not
// waiting for one.
func (r *Runner) Respond(ctx context.Context, taskID, answer string) error {
	answer = strings.TrimSpace(answer)
	if answer == "" {
		return chat.Errorf(chat.CodeInvalid, "the answer is empty")
	}
	return r.deliver(ctx, taskID, chat.StatusWaitingUser, "", decision{kind: decisionAnswer, text: answer})
}

// Approve lets the tool call waiting for approval run; forTask approves the
// same tool for the rest of the task.
func (r *Runner) Approve(ctx context.Context, taskID, callID string, forTask bool) error {
	return r.deliver(ctx, taskID, chat.StatusWaitingApproval, callID, decision{kind: decisionApprove, forTask: forTask})
}

// Deny refuses the tool call waiting for approval; the model is told, with
// the reason if one is given, and goes on.
func (r *Runner) Deny(ctx context.Context, taskID, callID, reason string) error {
	return r.deliver(ctx, taskID, chat.StatusWaitingApproval, callID,
		decision{kind: decisionDeny, text: strings.TrimSpace(reason)})
}

// Continue lets a paused task go on, raising the limit it reached.
func (r *Runner) Continue(ctx context.Context, taskID string) error {
	return r.deliver(ctx, taskID, chat.StatusPaused, "", decision{kind: decisionProceed})
}

func (r *Runner) deliver(ctx context.Context, taskID string, want chat.TaskStatus, callID string, d decision) error {
	rn := r.lookup(taskID)
	if rn == nil {
		t, err := r.opts.Store.GetTask(ctx, taskID)
		if err != nil {
			return err
		}
		return chat.Errorf(chat.CodeConflict, "the task is not %s (it is %s)", waitingFor(want), t.Status)
	}
	return rn.deliver(want, callID, d)
}

// SettingsChanged applies new settings to running tasks: a tool call
// waiting for approval whose risk is now approved automatically goes ahead.
func (r *Runner) SettingsChanged(ctx context.Context) {
	s := r.settings(ctx)
	r.mu.Lock()
	runs := make([]*run, 0, len(r.runs))
	for _, rn := range r.runs {
		runs = append(runs, rn)
	}
	r.mu.Unlock()
	for _, rn := range runs {
		t := rn.snapshot()
		if a := t.PendingApproval; t.Status == chat.StatusWaitingApproval && a != nil && s.AutoApprove[a.Risk] {
			_ = rn.deliver(chat.StatusWaitingApproval, a.CallID, decision{kind: decisionApprove})
		}
	}
}

// Task returns a task's current state.
func (r *Runner) Task(ctx context.Context, taskID string) (chat.Task, error) {
	if rn := r.lookup(taskID); rn != nil {
		return rn.snapshot(), nil
	}
	return r.opts.Store.GetTask(ctx, taskID)
}

// ActiveTask returns the running task of a conversation, if any.
func (r *Runner) ActiveTask(conversationID string) (chat.Task, bool) {
	r.mu.Lock()
	rn := r.byConv[conversationID]
	r.mu.Unlock()
	if rn == nil {
		return chat.Task{}, false
	}
	return rn.snapshot(), true
}

func (r *Runner) lookup(taskID string) *run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs[taskID]
}

// release forgets a run once it has ended, freeing its conversation.
func (r *Runner) release(rn *run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs[rn.task.ID] == rn {
		delete(r.runs, rn.task.ID)
	}
	if r.byConv[rn.task.ConversationID] == rn {
		delete(r.byConv, rn.task.ConversationID)
	}
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
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("agent tasks did not stop in time")
	}
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
		case waits(t.Status):
			if _, err := r.resume(ctx, t); err != nil {
				return interrupted, waiting, err
			}
			waiting++
		default:
			msgs, err := r.opts.Store.TaskMessages(ctx, t.ID)
			if err != nil {
				return interrupted, waiting, err
			}
			t, closing := interruptTask(t, msgs)
			t.Rev++
			if _, err := r.opts.Store.FinishTask(ctx, t, closing); err != nil {
				return interrupted, waiting, err
			}
			interrupted++
		}
	}
	return interrupted, waiting, nil
}

// waits reports whether a task in status s is waiting for the person.
func waits(s chat.TaskStatus) bool {
	return s == chat.StatusWaitingUser || s == chat.StatusWaitingApproval || s == chat.StatusPaused
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
	msgs, err := r.opts.Store.TaskMessages(ctx, t.ID)
	if err != nil {
		return err
	}
	t = endTask(t, status, errMsg)
	t.Rev++
	stored, err := r.opts.Store.FinishTask(ctx, t, closingMessages(t, msgs, notice))
	if err != nil {
		return err
	}
	for _, m := range stored {
		r.opts.Events.MessageStored(m)
	}
	r.opts.Events.TaskUpdated(t)
	return nil
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
	return t
}

// closingMessages are the messages that end a task: a result for every
// tool call still open, so the transcript stays valid, and a notice.
func closingMessages(t chat.Task, msgs []chat.Message, notice string) []chat.Message {
	now := clock()
	var out []chat.Message
	result := "Cancelled: the task was stopped before this tool call finished."
	if t.Status != chat.StatusCancelled {
		result = "Interrupted: the task ended before this tool call finished."
	}
	for _, c := range openToolCalls(msgs) {
		out = append(out, chat.Message{
			ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
			Role: chat.RoleTool, ToolCallID: c.ID, ToolName: c.Name,
			Content: result, IsError: true, Step: t.StepCount, CreatedAt: now,
		})
	}
	if notice != "" {
		out = append(out, chat.Message{
			ID: uuid.NewString(), ConversationID: t.ConversationID, TaskID: t.ID,
			Role: chat.RoleSystem, Content: notice, Step: t.StepCount, CreatedAt: now,
		})
	}
	return out
}
