// Package chat holds Errand's domain types: conversations, the messages in
// them, and the agent tasks that work inside them. It imports nothing of
// ours, so every other package can depend on it and none of them can leak
// infrastructure into it.
package chat

import (
	"context"
	"time"
)

// Conversation is one thread the user sees in the sidebar.
type Conversation struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// TitleSet is true once the user renamed the conversation; until then
	// the title follows the first message.
	TitleSet bool `json:"titleSet"`
	// Mode is remembered per conversation: ModeAgent routes new messages to
	// the agent loop, ModeChat to a direct reply, and ModeAuto decides for
	// each message.
	Mode TaskMode `json:"mode"`
	// Workspace is the folder the agent's file and shell tools work in;
	// empty means the conversation's default folder.
	Workspace string `json:"workspace"`
	// Model overrides the default model for this conversation.
	Model string `json:"model"`
	// AgentID is the agent the conversation talks to; "" is Errand.
	AgentID   string    `json:"agentId"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
	// State is active, completed or ended; an ended conversation says who
	// ended it (EndedByAgent, EndedByPerson) and why. A new task makes it
	// active again.
	State     ConversationState `json:"state"`
	EndedBy   string            `json:"endedBy,omitempty"`
	EndReason string            `json:"endReason,omitempty"`
	// Archived conversations are out of the list, in the Archived view,
	// until restored; no task starts in one.
	Archived bool `json:"archived"`
}

// ConversationSummary is a Conversation as the sidebar lists it.
type ConversationSummary struct {
	Conversation
	// ActiveTask is the conversation's unfinished task, if any.
	ActiveTask *Task `json:"activeTask,omitempty"`
}

// Role says who wrote a message. RoleSystem is a notice from Errand itself
// ("Stopped by user"); it is shown to the user and never sent to the model.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleSystem    Role = "system"
)

// ToolCall is one function call the model asked for. Arguments is the raw
// JSON text the model produced, which may be invalid.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one entry in a conversation's transcript. The stored transcript
// is a valid chat transcript: every assistant message with tool calls is
// followed by exactly one tool message per call id.
type Message struct {
	ID             string `json:"id"`
	ConversationID string `json:"conversationId"`
	// TaskID is empty for messages written outside any task.
	TaskID  string `json:"taskId,omitempty"`
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Attachments are the files the person sent with a user message.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Reasoning is an assistant message's thinking, kept apart from its
	// content (never in search, Copy message or the answer), and
	// ReasoningMS how long the model thought (from its first thinking
	// delta to its first answer delta or the end of the reply).
	Reasoning   string `json:"reasoning,omitempty"`
	ReasoningMS int64  `json:"reasoningMs,omitempty"`
	// ReasoningData is the provider's own record of the thinking (e.g.
	// Anthropic's signed thinking blocks), passed back to that provider
	// within the turn; the window never sees it.
	ReasoningData string     `json:"-"`
	ToolCalls     []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and ToolName are set on RoleTool messages.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	// IsError marks a tool result that reports a failure to the model.
	IsError bool `json:"isError,omitempty"`
	// Outcome says, on a RoleTool message, how a call ended that did not
	// simply run: the person denied it, its task was stopped, or Errand
	// closed while it ran ("" otherwise). On an assistant message, cut_off:
	// Errand closed while it streamed; a resumed task writes it again.
	Outcome ToolOutcome `json:"outcome,omitempty"`
	// Delivery is set on a message the person added while their task
	// worked: queued until the task's next step gives it to the model,
	// not_delivered when the task ended first ("" otherwise).
	Delivery Delivery `json:"delivery,omitempty"`
	// Step is the task step that produced the message (0 outside tasks).
	Step int `json:"step,omitempty"`
	// Streaming is true while the model is still writing the message.
	Streaming bool `json:"streaming,omitempty"`
	// Usage and CostUSD are the model call's, on the assistant message of
	// each step.
	Usage   *Usage  `json:"usage,omitempty"`
	CostUSD float64 `json:"costUsd,omitempty"`
	// SummaryID is set on the notice "Earlier messages summarised": the
	// summary the model sees in place of the messages before it.
	SummaryID string `json:"summaryId,omitempty"`
	// ParentID is the message this one continues in the conversation's
	// tree ("" for a first message). A message with several children has
	// several continuations: versions, of which the current branch shows one.
	ParentID string `json:"parentId,omitempty"`
	// Versions counts this message with its siblings (the other children
	// of its parent), and Version is its place among them from 1, oldest
	// first; both are 0 on a message that has no siblings.
	Versions int `json:"versions,omitempty"`
	Version  int `json:"version,omitempty"`
	// OffBranch is 0 on a message of the current branch and not 0 on a
	// message off it. In a conversation's record (an export) it numbers the
	// paths off the branch: below a message, those of its number are the
	// continuation switching back to it shows.
	OffBranch int64 `json:"offBranch,omitempty"`
	// Seq orders messages within the whole database; it only grows.
	Seq int64 `json:"seq"`
	// Rev counts the updates of this message; a higher Rev is newer.
	Rev       int       `json:"rev"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
}

// Turn is a task on a conversation's branch and where it starts: AfterID
// is its prompt, the message it answers (the message before its first
// one, for a task with no prompt of its own).
type Turn struct {
	Task    Task
	AfterID string
}

// ToolOutcome is how a tool call ended when it did not simply run.
type ToolOutcome string

const (
	OutcomeDenied  ToolOutcome = "denied"
	OutcomeStopped ToolOutcome = "stopped"
	OutcomeCutOff  ToolOutcome = "cut_off"
	// On task_complete's result: OutcomeChecking while the reflection
	// checks the result against the plan (no completion card yet);
	// OutcomeUnmet when the task went on instead of ending there (the
	// check found the goal unmet or did not answer, or the person asked
	// for more). The task ended there with OutcomeUnchecked when the
	// check did not answer, OutcomeIncomplete when the last check found
	// the goal unmet (the result then says why); an accepted completion
	// has no outcome.
	OutcomeChecking   ToolOutcome = "checking"
	OutcomeUnmet      ToolOutcome = "unmet"
	OutcomeUnchecked  ToolOutcome = "unchecked"
	OutcomeIncomplete ToolOutcome = "incomplete"
)

// Delivery is where a message added during a task is on its way to the model.
type Delivery string

const (
	DeliveryQueued       Delivery = "queued"
	DeliveryNotDelivered Delivery = "not_delivered"
)

// TaskStatus is where a task is in its life.
type TaskStatus string

const (
	StatusRunning       TaskStatus = "running"
	StatusThinking      TaskStatus = "thinking"
	StatusToolExecuting TaskStatus = "tool_executing"
	StatusWaitingUser   TaskStatus = "waiting_user"
	// StatusWaitingApproval: a tool that writes or is destructive waits for
	// the person to approve or deny it.
	StatusWaitingApproval TaskStatus = "waiting_approval"
	// StatusPaused: a limit (steps, time, spend) was reached, or the agent
	// repeated itself; the person decides whether it goes on.
	StatusPaused TaskStatus = "paused"
	// StatusInterrupted: Errand closed (or crashed) while the task was
	// thinking or running a tool; the person may resume or dismiss it.
	StatusInterrupted TaskStatus = "interrupted"
	StatusCompleted   TaskStatus = "completed"
	StatusCancelled   TaskStatus = "cancelled"
	StatusError       TaskStatus = "error"
)

// Terminal reports whether a task in this status has ended for good.
func (s TaskStatus) Terminal() bool {
	return s == StatusCompleted || s == StatusCancelled || s == StatusError
}

// Waiting reports whether a task in this status waits for the person: a
// question, an approval, or a decision after a limit.
func (s TaskStatus) Waiting() bool {
	return s == StatusWaitingUser || s == StatusWaitingApproval || s == StatusPaused
}

// TaskMode separates the agent loop from a single chat reply.
type TaskMode string

const (
	ModeAgent TaskMode = "agent"
	ModeChat  TaskMode = "chat"
)

// Usage counts tokens as the model server reports them. PromptTokens is
// the whole prompt; CacheReadTokens and CacheWriteTokens are the parts of
// it read from and written to the server's prompt cache (Anthropic's
// prompt caching), priced apart.
type Usage struct {
	PromptTokens     int64 `json:"promptTokens"`
	CompletionTokens int64 `json:"completionTokens"`
	TotalTokens      int64 `json:"totalTokens"`
	CacheReadTokens  int64 `json:"cacheReadTokens"`
	CacheWriteTokens int64 `json:"cacheWriteTokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		TotalTokens:      u.TotalTokens + o.TotalTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
	}
}

// Task is one piece of work the agent does in a conversation: an
// AgentTask in the design documents. It is stored on every change.
type Task struct {
	ID             string     `json:"id"`
	ConversationID string     `json:"conversationId"`
	Mode           TaskMode   `json:"mode"`
	Status         TaskStatus `json:"status"`
	OriginalPrompt string     `json:"originalPrompt"`
	StepCount      int        `json:"stepCount"`
	StartedAt      time.Time  `json:"startedAt" ts_type:"string"`
	EndedAt        *time.Time `json:"endedAt,omitempty" ts_type:"string"`
	// PendingQuestion and PendingChoices are set while waiting_user.
	PendingQuestion string   `json:"pendingQuestion,omitempty"`
	PendingChoices  []string `json:"pendingChoices,omitempty"`
	// PendingMultiple lets the person pick several choices (the answer is
	// a JSON array); PendingAllowOther adds a free-text "Other".
	PendingMultiple   bool `json:"pendingMultiple,omitempty"`
	PendingAllowOther bool `json:"pendingAllowOther,omitempty"`
	// PendingFields is the form the question asks to fill in; its answer
	// is a JSON object of field values, checked by ValidateAnswer.
	PendingFields []FormField `json:"pendingFields,omitempty"`
	// Input is how the agent wants the composer: set by ask_user while it
	// waits and by send_update until the next one.
	Input *InputHint `json:"input,omitempty"`
	// AgentID is the agent that runs the task; SwitchedFrom names the
	// agent the conversation had before, when the person switched.
	AgentID      string `json:"agentId"`
	SwitchedFrom string `json:"switchedFrom,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	CurrentTool  string `json:"currentTool,omitempty"`
	// Rev grows by one with every stored change of the task; of two
	// copies, the one with the higher Rev is newer.
	Rev int64 `json:"rev"`
	// CurrentCallID is the tool call that is running, so that a call cut
	// off by a crash is known and never re-run silently.
	CurrentCallID string `json:"currentCallId,omitempty"`
	Usage         Usage  `json:"usage"`
	Model         string `json:"model"`
	// Summary is what task_complete reported.
	Summary string `json:"summary,omitempty"`
	// PendingApproval is the tool call waiting for the person's decision.
	PendingApproval *Approval `json:"pendingApproval,omitempty"`
	// PauseReason says which limit paused the task; PendingQuestion then
	// asks whether to go on.
	PauseReason PauseReason `json:"pauseReason,omitempty"`
	// Limits are this task's own, copied from the settings when it started
	// and raised each time the person lets it continue.
	Limits Limits `json:"limits"`
	// CostUSD is the task's spend so far, from usage and the price table.
	CostUSD float64 `json:"costUsd"`
	// ActiveMS is the time the task spent working (not waiting for the
	// person), in milliseconds; the time limit counts it.
	ActiveMS int64 `json:"activeMs"`
	// ContextTokens is the size of the task's last request to the model, as
	// Errand counts it, and ContextLimit the model's context length then
	// (0 when unknown): how full the context window is.
	ContextTokens int `json:"contextTokens"`
	ContextLimit  int `json:"contextLimit"`
	// Plan is the task's newest plan (update_plan), if it has one.
	Plan *Plan `json:"plan,omitempty"`
	// Reflecting is true while Errand checks the result against the plan
	// before accepting task_complete; Reflections counts those checks.
	Reflecting  bool `json:"reflecting,omitempty"`
	Reflections int  `json:"reflections,omitempty"`
	// Decision says how the task's mode was chosen, when it was not simply
	// the conversation's Agent or Chat mode.
	Decision *ModeDecision `json:"decision,omitempty"`
	// NetworkAllowed (the task's sandboxed commands may reach the network)
	// and ApprovedTools ("Approve for this task") are what the person
	// allowed for the rest of this task: they are stored with it, so a task
	// resumed after a restart keeps them, and they end with it (a Retry
	// asks again). They stay off the wire and out of exports: nothing
	// outside the task's own run may read or bring them.
	NetworkAllowed bool     `json:"-"`
	ApprovedTools  []string `json:"-"`
}

// ModeDecision is how a message's mode was chosen: By is "auto" (Errand
// decided in Auto mode), "forced" (/task or /chat), "rerun" (the person
// asked for the other way) or "fallback" (the model refused tools, so it
// answered directly).
type ModeDecision struct {
	By     string `json:"by"`
	Reason string `json:"reason,omitempty"`
}

// How a mode was decided (ModeDecision.By).
const (
	DecidedAuto     = "auto"
	DecidedForced   = "forced"
	DecidedRerun    = "rerun"
	DecidedFallback = "fallback"
)

// Summary stands in, for the model, for a conversation's messages up to
// and including ThroughSeq: what compaction made of them. The messages
// themselves stay stored and shown.
type Summary struct {
	ID             string `json:"id"`
	ConversationID string `json:"conversationId"`
	ThroughSeq     int64  `json:"throughSeq"`
	Text           string `json:"text"`
	// ToolLog lists the tools the summarised messages ran, one a line,
	// with whether they succeeded.
	ToolLog   string    `json:"toolLog"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
}

// Approval is a tool call shown to the person before it runs.
type Approval struct {
	CallID    string `json:"callId"`
	Tool      string `json:"tool"`
	Risk      string `json:"risk"`
	Arguments string `json:"arguments"`
	// Preview shows what the call would do (a diff), when the tool can tell.
	Preview string `json:"preview,omitempty"`
	// Address is the local network address a call wants to reach, for
	// an approval of risk RiskLocalNetwork.
	Address string `json:"address,omitempty"`
	// Sandbox says, for a tool that runs in a sandbox where there is one
	// (run_command), whether this call would: SandboxOn or SandboxOff.
	Sandbox string `json:"sandbox,omitempty"`
}

// Approval.Sandbox's values.
const (
	SandboxOn  = "sandboxed"
	SandboxOff = "not_sandboxed"
)

// RiskNetwork is the risk of an approval for letting a sandboxed command
// reach the network: once allowed, for the rest of the task.
const RiskNetwork = "network"

// RiskLocalNetwork is the risk of an approval for reaching an address on
// this computer or the local network: asked every time, never approved in
// advance by the settings or for the rest of a task.
const RiskLocalNetwork = "local_network"

// Limits bound a task so that it pauses instead of running away.
type Limits struct {
	MaxSteps   int     `json:"maxSteps"`
	MaxMinutes float64 `json:"maxMinutes"`
	MaxCostUSD float64 `json:"maxCostUsd"`
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"inputPerMTok"`
	OutputPerMTok float64 `json:"outputPerMTok"`
}

// Prompt-cache prices relative to the input price: Anthropic's published
// multipliers for a cache hit and for a write with the default 5-minute
// lifetime.
const (
	CacheReadPriceFactor  = 0.1
	CacheWritePriceFactor = 1.25
)

// Cost is the price of usage, always a finite number from 0 to
// CostCeilingUSD (see ClampCost), whatever the price and the counts. The
// prompt tokens read from the cache cost CacheReadPriceFactor of the input
// price, those written to it CacheWritePriceFactor.
func (p Price) Cost(u Usage) float64 {
	cached := u.CacheReadTokens + u.CacheWriteTokens
	input := float64(max(0, u.PromptTokens-cached)) +
		float64(max(0, u.CacheReadTokens))*CacheReadPriceFactor +
		float64(max(0, u.CacheWriteTokens))*CacheWritePriceFactor
	return ClampCost(input*p.InputPerMTok/1e6 + float64(u.CompletionTokens)*p.OutputPerMTok/1e6)
}

// Settings are the person's choices for how the agent works.
type Settings struct {
	// AutoApprove lists the tool risks ("read_only", "writes",
	// "destructive") that run without asking.
	AutoApprove map[string]bool `json:"autoApprove"`
	// Limits are the defaults for new tasks.
	Limits Limits `json:"limits"`
	// StepDelayMS is a pause between two model calls (rate limiting).
	StepDelayMS int `json:"stepDelayMs"`
	// Prices by model name.
	Prices map[string]Price `json:"prices"`
	// ContextLengths by model name, in tokens.
	ContextLengths map[string]int `json:"contextLengths"`
	// Provider is the model server; its key is kept elsewhere (never here).
	Provider ProviderConfig `json:"provider"`
	// SystemPrompt replaces the built-in agent instructions when set.
	SystemPrompt string `json:"systemPrompt"`
	// MemoryEnabled offers the agent remember and forget and shows it the
	// facts it was asked to remember; off, it neither sees nor keeps any.
	MemoryEnabled bool `json:"memoryEnabled"`
	// Notifications: a desktop notification when a task the person is not
	// looking at ends or needs them.
	Notifications bool `json:"notifications"`
	// MCPCallTimeoutSec is how long one MCP tool call may take before it
	// is cancelled.
	MCPCallTimeoutSec int `json:"mcpCallTimeoutSec"`
	// CheckpointLimitMB bounds the file contents kept to undo tasks'
	// changes; the oldest checkpoints are pruned past it.
	CheckpointLimitMB int `json:"checkpointLimitMb"`
	// CheckpointExclude names the folders a workspace snapshot skips
	// wherever they are (before run_command).
	CheckpointExclude []string `json:"checkpointExclude"`
	// DefaultMode is a new conversation's mode: auto, agent or chat.
	DefaultMode TaskMode `json:"defaultMode"`
	// ReflectionRounds is how many times, at most, a task with a plan is
	// checked against it before task_complete is accepted; 0 turns
	// reflection off.
	ReflectionRounds int `json:"reflectionRounds"`
	// AutoAskModel lets Auto mode ask the model (one short call) when its
	// local decision is unsure.
	AutoAskModel bool `json:"autoAskModel"`
	// ShowThinking shows the models' thinking blocks in the transcript.
	ShowThinking bool `json:"showThinking"`
	// ModelFirstByteTimeoutSec cuts a model call whose server sends nothing
	// for this long after the request; ModelIdleTimeoutSec one that goes
	// silent this long between two chunks. The call is retried once.
	ModelFirstByteTimeoutSec int `json:"modelFirstByteTimeoutSec"`
	ModelIdleTimeoutSec      int `json:"modelIdleTimeoutSec"`
	// ReasoningEffort by model name, sent as reasoning_effort; absent (or
	// "") sends none.
	ReasoningEffort map[string]ReasoningEffort `json:"reasoningEffort"`
}

// MaxReflectionRounds bounds the ReflectionRounds setting.
const MaxReflectionRounds = 5

// ProviderConfig says which OpenAI-compatible server answers, and with
// which model by default.
type ProviderConfig struct {
	// Preset is one of "demo", "openai", "ollama", "lmstudio",
	// "openrouter", "custom"; empty means nothing was configured yet.
	Preset  string `json:"preset"`
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
}

// DefaultSettings are the settings of a new installation.
func DefaultSettings() Settings {
	return Settings{
		AutoApprove:       map[string]bool{"read_only": true, "writes": false, "destructive": false},
		Limits:            Limits{MaxSteps: 50, MaxMinutes: 30, MaxCostUSD: 1},
		MemoryEnabled:     true,
		Notifications:     true,
		MCPCallTimeoutSec: 120,
		CheckpointLimitMB: 1024,
		CheckpointExclude: []string{".git", "node_modules"},
		DefaultMode:       ModeAuto,
		ReflectionRounds:  2,
		ShowThinking:      true,
		// Generous: a local model may load for a minute or two on first use.
		ModelFirstByteTimeoutSec: 120,
		ModelIdleTimeoutSec:      60,
		Prices: map[string]Price{
			"gpt-4o-mini":  {InputPerMTok: 0.15, OutputPerMTok: 0.60},
			"gpt-4o":       {InputPerMTok: 2.50, OutputPerMTok: 10.00},
			"gpt-4.1":      {InputPerMTok: 2.00, OutputPerMTok: 8.00},
			"gpt-4.1-mini": {InputPerMTok: 0.40, OutputPerMTok: 1.60},
			"gpt-4.1-nano": {InputPerMTok: 0.10, OutputPerMTok: 0.40},
			"o4-mini":      {InputPerMTok: 1.10, OutputPerMTok: 4.40},
			"gpt-5":        {InputPerMTok: 1.25, OutputPerMTok: 10.00},
			"gpt-5-mini":   {InputPerMTok: 0.25, OutputPerMTok: 2.00},
			// Anthropic's list prices (cached prompt tokens: see Price.Cost).
			"claude-opus-5":     {InputPerMTok: 5.00, OutputPerMTok: 25.00},
			"claude-opus-4-8":   {InputPerMTok: 5.00, OutputPerMTok: 25.00},
			"claude-opus-4-7":   {InputPerMTok: 5.00, OutputPerMTok: 25.00},
			"claude-opus-4-6":   {InputPerMTok: 5.00, OutputPerMTok: 25.00},
			"claude-opus-4-5":   {InputPerMTok: 5.00, OutputPerMTok: 25.00},
			"claude-sonnet-4-6": {InputPerMTok: 3.00, OutputPerMTok: 15.00},
			"claude-sonnet-4-5": {InputPerMTok: 3.00, OutputPerMTok: 15.00},
			"claude-haiku-4-5":  {InputPerMTok: 1.00, OutputPerMTok: 5.00},
			"claude-fable-5":    {InputPerMTok: 10.00, OutputPerMTok: 50.00},
			"errand-demo":       {},
		},
	}
}

// Active reports whether the task still occupies its conversation.
func (t Task) Active() bool { return !t.Status.Terminal() }

// ConversationView is everything the chat view needs to open a conversation.
type ConversationView struct {
	Conversation Conversation `json:"conversation"`
	Messages     []Message    `json:"messages"`
	// Tasks holds the conversation's tasks, oldest first.
	Tasks []Task `json:"tasks"`
	// ActiveTask is the unfinished task, if any.
	ActiveTask *Task `json:"activeTask,omitempty"`
	// Usage and CostUSD add up the conversation's tasks.
	Usage   Usage   `json:"usage"`
	CostUSD float64 `json:"costUsd"`
	// HasOlder is true when Messages holds only the latest messages and
	// earlier ones exist (see HistoryPager.OpenConversation).
	HasOlder bool `json:"hasOlder,omitempty"`
}

// Store is the persistence Errand needs. Every method either changes
// everything it names or nothing.
type Store interface {
	HistoryPager
	CreateConversation(ctx context.Context, c Conversation) error
	GetConversation(ctx context.Context, id string) (Conversation, error)
	ListConversations(ctx context.Context) ([]ConversationSummary, error)
	RenameConversation(ctx context.Context, id, title string) (Conversation, error)
	// SetMode sets the conversation's mode (auto, agent or chat).
	SetMode(ctx context.Context, id string, mode TaskMode) (Conversation, error)
	// SavePlan stores the task's next plan revision (see CleanPlan).
	SavePlan(ctx context.Context, taskID string, steps []PlanStep, note string) (Plan, error)
	// PlanRevisions returns every revision of the task's plan, oldest first.
	PlanRevisions(ctx context.Context, taskID string) ([]Plan, error)
	SetWorkspace(ctx context.Context, id, dir string) (Conversation, error)
	SetModel(ctx context.Context, id, model string) (Conversation, error)
	DeleteConversation(ctx context.Context, id string) error
	// SetAgent sets the conversation's agent ("" for Errand).
	SetAgent(ctx context.Context, id, agentID string) (Conversation, error)
	// EndConversation records how a conversation ended (completed, or
	// ended early, by whom and why); a new task makes it active again.
	EndConversation(ctx context.Context, id string, end ConversationEnd) (Conversation, error)
	// ArchiveConversation archives (refused while a task is unfinished) or
	// restores a conversation.
	ArchiveConversation(ctx context.Context, id string, archived bool) (Conversation, error)
	// AgentStats counts each agent's conversations and completed tasks.
	AgentStats(ctx context.Context) ([]AgentStats, error)
	// Agent returns a definition, built in or stored, or CodeNotFound.
	Agent(ctx context.Context, id string) (AgentDefinition, error)
	// LastTaskAgent is the agent of the conversation's latest task ("" if
	// it has none).
	LastTaskAgent(ctx context.Context, conversationID string) (string, bool, error)
	LoadConversation(ctx context.Context, id string) (ConversationView, error)
	// Messages returns the conversation's messages in order.
	Messages(ctx context.Context, conversationID string) ([]Message, error)
	// TaskCalls returns the messages of a task that call tools and the
	// tool results, in order, without their text (what pairing needs).
	TaskCalls(ctx context.Context, taskID string) ([]Message, error)
	// ActiveTasks returns every task that has not ended.
	ActiveTasks(ctx context.Context) ([]Task, error)

	// StartTask stores a new task together with the user message that
	// started it, titles an untitled conversation from that message, and
	// fails with CodeConflict if the conversation already has an active task.
	StartTask(ctx context.Context, t Task, prompt Message) (Message, error)
	GetTask(ctx context.Context, id string) (Task, error)
	// StartTaskFrom is StartTask on a new branch of the conversation's
	// tree, after the message afterID ("" for its start): what followed
	// it stays, as another version. A prompt with no ID stores no message:
	// the task answers the message afterID.
	StartTaskFrom(ctx context.Context, t Task, prompt Message, afterID string) (Message, error)
	// LastTurn is the last task on the conversation's current branch and
	// where it starts; CodeInvalid when the branch has no task.
	LastTurn(ctx context.Context, conversationID string) (Turn, error)
	// TurnOf is LastTurn of the reply replyID shown on the branch ("" for
	// the last); CodeInvalid for a reply no task wrote.
	TurnOf(ctx context.Context, conversationID, replyID string) (Turn, error)
	// AddConversationUsage adds a model call outside any task (variations,
	// "Compact now") to the conversation's totals.
	AddConversationUsage(ctx context.Context, conversationID string, u Usage, costUSD float64) error
	// AddVersion stores m as another version of the message of: a child
	// of its parent beside it, off the current branch.
	AddVersion(ctx context.Context, m Message, of string) (Message, error)
	// SwitchBranch makes the branch through the message id current (the
	// continuation below it last shown); CodeConflict while a task runs.
	SwitchBranch(ctx context.Context, conversationID, id string) error
	// ShowVersion makes the version step places from the message id
	// current among it and its siblings, and returns that version's id.
	ShowVersion(ctx context.Context, conversationID, id string, step int) (string, error)
	// CopyBranch stores c with a copy of the branch up to the message id.
	CopyBranch(ctx context.Context, conversationID, id string, c Conversation) ([]Message, error)
	// DeleteBranch deletes a version and what follows it (the version shown:
	// its neighbour is shown instead; the only version is refused).
	DeleteBranch(ctx context.Context, conversationID, id string) error
	// GetMessage returns one message of the conversation, or CodeNotFound.
	GetMessage(ctx context.Context, conversationID, id string) (Message, error)
	UpdateTask(ctx context.Context, t Task) error
	// AddMessage stores a message, assigning Seq and Rev, and bumps the
	// conversation's activity time.
	AddMessage(ctx context.Context, m Message) (Message, error)
	// AppendContent appends streamed text to a message that is streaming,
	// at a cost in proportion to the text, and tells where it landed.
	AppendContent(ctx context.Context, id, text string) (Appended, error)
	// AppendReasoning appends streamed reasoning to a message that is
	// streaming, as AppendContent does text; Appended.Offset is the
	// reasoning's length before it.
	AppendReasoning(ctx context.Context, id, text string) (Appended, error)
	// UpdateMessage replaces a message's content, reasoning, tool calls,
	// streaming flag and outcome.
	UpdateMessage(ctx context.Context, m Message) (Message, error)
	// TakeQueued moves the task's queued messages, in order, to the end of
	// the conversation as delivered and returns them as stored.
	TakeQueued(ctx context.Context, taskID string) ([]Message, error)
	// MarkDelivered clears the mark of a message the task it was queued
	// for ended before reading (a task answers it now); a message not so
	// marked is a conflict.
	MarkDelivered(ctx context.Context, conversationID, id string) (Message, error)
	// FinishTask stores the task's final state together with the messages
	// that close it (notices, results for unanswered tool calls), and ends
	// its streams.
	FinishTask(ctx context.Context, t Task, msgs []Message) (Finished, error)
	// Record stores new messages and the task's state in one transaction,
	// so the execution state never disagrees with the transcript.
	Record(ctx context.Context, t Task, msgs []Message) ([]Message, error)

	Settings(ctx context.Context) (Settings, error)
	SaveSettings(ctx context.Context, s Settings) error
	// ToolsRefused reports whether the model of key (the provider settings
	// it was used with) refused tools; RememberToolsRefused records that
	// it did, and ForgetToolsRefused forgets every such record.
	ToolsRefused(ctx context.Context, key string) (bool, error)
	RememberToolsRefused(ctx context.Context, key string, at time.Time) error
	ForgetToolsRefused(ctx context.Context) error

	// AddSummary stores a summary together with its notice in the
	// transcript (whose SummaryID it sets), in one transaction.
	AddSummary(ctx context.Context, s Summary, notice Message) (Message, error)
	// LatestSummary returns the conversation's newest summary; ok is false
	// when it has none.
	LatestSummary(ctx context.Context, conversationID string) (s Summary, ok bool, err error)
	// GetSummary returns one summary or a CodeNotFound error.
	GetSummary(ctx context.Context, id string) (Summary, error)
	// MessagesSince returns the conversation's messages whose Seq is
	// greater than afterSeq, in order.
	MessagesSince(ctx context.Context, conversationID string, afterSeq int64) ([]Message, error)
}
