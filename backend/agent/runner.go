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
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
)

// Delta is streamed text appended to a stored message. Offset is the length
// in bytes of the message's content before Text; a receiver whose copy is not
// that long has missed something and should reload. With Reasoning set, Text
// is appended to the message's reasoning instead, and Offset is the length
// of the reasoning before it.
type Delta struct {
	ConversationID string `json:"conversationId"`
	TaskID         string `json:"taskId"`
	MessageID      string `json:"messageId"`
	Offset         int    `json:"offset"`
	Text           string `json:"text"`
	Reasoning      bool   `json:"reasoning,omitempty"`
	Rev            int    `json:"rev"`
}

// ToolOutput is a running command's output as it arrives: shown live, not
// stored (the call's result holds it all).
type ToolOutput struct {
	ConversationID string `json:"conversationId"`
	TaskID         string `json:"taskId"`
	CallID         string `json:"callId"`
	Text           string `json:"text"`
}

// Events receives what the runner has stored, in the order it was stored
// for any one task, and a running command's output as it arrives.
// Implementations must not block for long.
type Events interface {
	TaskUpdated(t chat.Task)
	MessageStored(m chat.Message)
	MessageDelta(d Delta)
	// StreamEnded tells of a streaming message ended with its task: its
	// text is what its deltas (and any MessageStored before them) carried.
	StreamEnded(e chat.StreamEnd)
	ConversationUpdated(c chat.Conversation)
	// ToolOutput shows a command's output live (it is never stored).
	ToolOutput(o ToolOutput)
	// FactsChanged tells of changed facts after the change is stored:
	// conversationID is the fact's conversation, empty for a global fact.
	FactsChanged(conversationID string)
}

// Options configures a Runner. Store, Events and Provider or Providers
// are required.
type Options struct {
	Store    Store
	Events   Events
	Provider llm.Provider
	// Providers, when set, picks the model for each conversation at the
	// start (or resumption) of each task; it wins over Provider.
	// agentModel is the model the task's agent asks for ("" for none).
	Providers func(ctx context.Context, conversationID, agentModel string) (llm.Provider, error)
	// ModelProvider, when set, is the provider of a model chosen by name
	// (a variation's); without it variations use the conversation's model.
	ModelProvider func(ctx context.Context, model string) (llm.Provider, error)
	// FlushInterval is the shortest time between two stored and published
	// pieces of streamed text for one task. Default 1/60 s.
	FlushInterval time.Duration
	// SystemPrompt replaces AgentSystemPrompt.
	SystemPrompt string
	// Tools are offered to the model besides the control tools.
	Tools []tools.Tool
	// ToolSource, when set, offers more tools that come and go while
	// Errand runs (the MCP servers'); each step sees the ones on offer.
	ToolSource tools.Source
	// Workspace opens the folder a conversation's tools work in. Without
	// it tools run with no workspace and file tools refuse.
	Workspace func(ctx context.Context, conversationID string) (*tools.Workspace, error)
	// Facts is the memory behind remember and forget. Without it the
	// agent has no memory, whatever the settings say.
	Facts Facts
	// Checkpoints, when set, keeps what a task's tools change in its
	// workspace, so the task's changes can be undone.
	Checkpoints func(taskID, workspace string) tools.Checkpoints
	// Attachments gives the model its view of the files people send and
	// of the images tools return; nil sends their names only.
	Attachments Files
}

// Runner is the AgentTaskRunner. It is safe for concurrent use.
type Runner struct {
	opts     Options
	tools    *tools.Live
	cached   atomic.Pointer[chat.Settings]
	counters sync.Map // model name → *contextwin.Counter
	fixed    sync.Map // model name → *fixedCounts
	// learnMu orders the runs that store a context length a server stated.
	learnMu sync.Mutex

	mu     sync.Mutex
	runs   map[string]*run // by task id
	byConv map[string]*run // by conversation id
	closed bool
	// alive holds the runs whose goroutine has not returned yet (a run is
	// released from runs and byConv as soon as its task ends, a little
	// before its goroutine returns).
	alive map[*run]struct{}
	// compacting holds the conversations CompactNow works on: no task
	// starts there meanwhile.
	compacting map[string]bool
	// varying holds the conversations Variations writes in: a second
	// Variations there (a double click) is refused.
	varying map[string]context.CancelFunc
	// noImages holds the models whose servers refused images: they are
	// sent the images' names instead, until the settings change.
	noImages map[string]bool

	// afterDecision, when set (by tests), runs in a task's loop right after
	// it has taken the person's decision, before it acts on it.
	afterDecision func(taskID string)
}

// New returns a Runner. Its tools are readied on their first use, or by
// PrepareTools; a tool's schema that does not compile or two tools sharing
// a name is a programming error, and panics there.
func New(opts Options) *Runner {
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = time.Second / 60
	}
	if opts.SystemPrompt == "" {
		opts.SystemPrompt = AgentSystemPrompt
	}
	live := tools.NewLive(controlSpecs(), opts.Tools, opts.ToolSource)
	return &Runner{opts: opts, tools: live, runs: map[string]*run{}, byConv: map[string]*run{}, alive: map[*run]struct{}{}, compacting: map[string]bool{}, varying: map[string]context.CancelFunc{}, noImages: map[string]bool{}}
}

// PrepareTools readies the tools now (their schemas compiled, the sandbox
// tried), so that the first task does not wait for it.
func (r *Runner) PrepareTools() { r.tools.Prepare() }

// settings are the person's settings as the store holds them; whoever
// saves them calls SettingsChanged, and the change applies to tasks already
// running. A store that cannot read them gives the defaults: safe ones,
// that ask before anything writes.
func (r *Runner) settings(ctx context.Context) chat.Settings {
	if s := r.cached.Load(); s != nil {
		return *s
	}
	return r.loadSettings(ctx)
}

// loadSettings reads the settings from the store into the cache, which
// SettingsChanged refreshes: a step costs one store read less.
func (r *Runner) loadSettings(ctx context.Context) chat.Settings {
	s, err := r.opts.Store.Settings(ctx)
	if err != nil {
		slog.Error("read settings", "err", err)
		return chat.DefaultSettings()
	}
	r.cached.Store(&s)
	return s
}

// ErrShuttingDown is returned by StartTask once Shutdown has begun.
var ErrShuttingDown = chat.Errorf(chat.CodeConflict, "Errand is shutting down")

// StartTask stores a new task for the user's text in the conversation and
// starts working on it in the background. It returns the stored task at
// once. mode selects the agent loop or a single chat reply. The task is
// the conversation's agent's: its instructions, tools, model and limits.
func (r *Runner) StartTask(ctx context.Context, conversationID, text string, mode chat.TaskMode) (chat.Task, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "the message is empty")
	}
	if mode != chat.ModeAgent && mode != chat.ModeChat {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "unknown task mode %q", mode)
	}
	return r.begin(ctx, conversationID, text, mode, beginning{})
}

// StartProactive starts a task of the conversation's agent with no message
// from the person: a proactive agent speaks first. Any other agent is
// refused.
func (r *Runner) StartProactive(ctx context.Context, conversationID string) (chat.Task, error) {
	return r.begin(ctx, conversationID, "", chat.ModeAgent, beginning{})
}

// beginning is how a task came to run: the decision that chose its mode
// (to show), and where on the conversation's tree it starts (nil: at the
// current branch's end).
type beginning struct {
	decision *chat.ModeDecision
	from     *branchFrom
	// attachments are the files the person's message carries.
	attachments []chat.Attachment
	// paid is what a model call made for the task before it began (Auto
	// mode's classification) used and cost: the task starts with it.
	paid     chat.Usage
	paidCost float64
}

// branchFrom says where on the conversation's tree a task starts: after
// the message after ("" for the start), with a prompt message of its own
// or none (it answers the message after).
type branchFrom struct {
	after    string
	noPrompt bool
}

func (r *Runner) begin(ctx context.Context, conversationID, text string, mode chat.TaskMode, how beginning) (chat.Task, error) {
	conv, err := r.opts.Store.GetConversation(ctx, conversationID)
	if err != nil {
		return chat.Task{}, err
	}
	def := r.agentOf(ctx, conv.AgentID)
	if text == "" && len(how.attachments) == 0 && def.Mode != chat.ChatProactive {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "%s is not a proactive agent: it waits for your message", def.Name)
	}
	provider, err := r.provider(ctx, conversationID, def.Model)
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
		Limits:         def.Limits.Over(r.settings(ctx).Limits),
		AgentID:        def.ID,
		Decision:       how.decision,
		Usage:          how.paid,
		CostUSD:        how.paidCost,
		Rev:            1,
	}
	if task.SwitchedFrom, err = r.switchedFrom(ctx, conversationID, def); err != nil {
		return chat.Task{}, err
	}
	var prompt chat.Message
	if (text != "" || len(how.attachments) > 0) && (how.from == nil || !how.from.noPrompt) {
		prompt = chat.Message{
			ID:             uuid.NewString(),
			ConversationID: conversationID,
			TaskID:         task.ID,
			Role:           chat.RoleUser,
			Content:        text,
			Attachments:    how.attachments,
			CreatedAt:      now,
		}
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
	if r.compacting[conversationID] {
		r.mu.Unlock()
		return chat.Task{}, chat.Errorf(chat.CodeConflict,
			"this conversation is being summarised for the model; try again in a moment")
	}
	if how.from == nil {
		prompt, err = r.opts.Store.StartTask(ctx, task, prompt)
	} else {
		prompt, err = r.opts.Store.StartTaskFrom(ctx, task, prompt, how.from.after)
	}
	if err != nil {
		r.mu.Unlock()
		return chat.Task{}, err
	}
	rn := r.launch(task, provider, def)
	rn.fresh = true
	r.mu.Unlock()

	r.opts.Events.TaskUpdated(task)
	if prompt.ID != "" {
		r.opts.Events.MessageStored(prompt)
	}
	if c, err := r.opts.Store.GetConversation(ctx, conversationID); err == nil {
		r.opts.Events.ConversationUpdated(c)
	}
	rn.start()
	return task, nil
}

// agentOf is the definition of an agent id ("" is Errand). An agent that
// is gone (deleted meanwhile) is Errand too: its conversations fall back.
func (r *Runner) agentOf(ctx context.Context, id string) chat.AgentDefinition {
	d, err := r.opts.Store.Agent(ctx, id)
	if err != nil {
		if chat.ErrorCode(err) != chat.CodeNotFound {
			slog.Error("read agent definition", "agent", id, "err", err)
		}
		d, _ = chat.BuiltinAgent(chat.AgentErrand)
	}
	return d
}

// switchedFrom names the agent of the conversation's previous task when
// it was another: the model is told of the switch.
func (r *Runner) switchedFrom(ctx context.Context, conversationID string, def chat.AgentDefinition) (string, error) {
	prev, ok, err := r.opts.Store.LastTaskAgent(ctx, conversationID)
	if err != nil || !ok {
		return "", err
	}
	if prev == "" {
		prev = chat.AgentErrand
	}
	if prev == def.ID {
		return "", nil
	}
	return r.agentOf(ctx, prev).Name, nil
}

// provider is the model a task in the conversation talks to.
func (r *Runner) provider(ctx context.Context, conversationID, agentModel string) (llm.Provider, error) {
	if r.opts.Providers != nil {
		return r.opts.Providers(ctx, conversationID, agentModel)
	}
	return r.opts.Provider, nil
}

// launch registers a run for a stored task; r.mu must be held. The caller
// publishes what it must, then calls start.
func (r *Runner) launch(t chat.Task, p llm.Provider, def chat.AgentDefinition) *run {
	runCtx, cancel := context.WithCancel(context.Background())
	rn := newRun(r, t, cancel)
	rn.def = def
	rn.provider = p
	rn.ctx = runCtx
	r.runs[t.ID] = rn
	r.byConv[t.ConversationID] = rn
	r.alive[rn] = struct{}{}
	return rn
}

// start runs the loop in its own goroutine, which the Runner owns.
func (rn *run) start() {
	go func() {
		defer rn.exit()
		defer rn.cancel()
		rn.loop(rn.ctx)
	}()
}

// exit marks the run's goroutine as returned.
func (rn *run) exit() {
	rn.r.mu.Lock()
	delete(rn.r.alive, rn)
	rn.r.mu.Unlock()
	close(rn.exited)
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

// Working counts the tasks at work now: those a quit would cut off (a
// task waiting for the person keeps waiting across a restart).
func (r *Runner) Working() int {
	r.mu.Lock()
	runs := make([]*run, 0, len(r.runs))
	for _, rn := range r.runs {
		runs = append(runs, rn)
	}
	r.mu.Unlock()
	n := 0
	for _, rn := range runs {
		if t := rn.snapshot(); !t.Status.Terminal() && !t.Status.Waiting() {
			n++
		}
	}
	return n
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
