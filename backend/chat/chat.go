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
	// AgentMode is remembered per conversation: true routes new messages to
	// the agent loop, false to simple chat.
	AgentMode bool      `json:"agentMode"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
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
	TaskID    string     `json:"taskId,omitempty"`
	Role      Role       `json:"role"`
	Content   string     `json:"content"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and ToolName are set on RoleTool messages.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	// IsError marks a tool result that reports a failure to the model.
	IsError bool `json:"isError,omitempty"`
	// Step is the task step that produced the message (0 outside tasks).
	Step int `json:"step,omitempty"`
	// Streaming is true while the model is still writing the message.
	Streaming bool `json:"streaming,omitempty"`
	// Seq orders messages within the whole database; it only grows.
	Seq int64 `json:"seq"`
	// Rev counts the updates of this message; a higher Rev is newer.
	Rev       int       `json:"rev"`
	CreatedAt time.Time `json:"createdAt"`
}

// TaskStatus is where a task is in its life.
type TaskStatus string

const (
	StatusRunning       TaskStatus = "running"
	StatusThinking      TaskStatus = "thinking"
	StatusToolExecuting TaskStatus = "tool_executing"
	StatusWaitingUser   TaskStatus = "waiting_user"
	StatusCompleted     TaskStatus = "completed"
	StatusCancelled     TaskStatus = "cancelled"
	StatusError         TaskStatus = "error"
)

// Terminal reports whether a task in this status has ended for good.
func (s TaskStatus) Terminal() bool {
	return s == StatusCompleted || s == StatusCancelled || s == StatusError
}

// TaskMode separates the agent loop from a single chat reply.
type TaskMode string

const (
	ModeAgent TaskMode = "agent"
	ModeChat  TaskMode = "chat"
)

// Usage counts tokens as the model server reports them.
type Usage struct {
	PromptTokens     int64 `json:"promptTokens"`
	CompletionTokens int64 `json:"completionTokens"`
	TotalTokens      int64 `json:"totalTokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		TotalTokens:      u.TotalTokens + o.TotalTokens,
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
	StartedAt      time.Time  `json:"startedAt"`
	EndedAt        *time.Time `json:"endedAt,omitempty"`
	// PendingQuestion and PendingChoices are set while waiting_user.
	PendingQuestion string   `json:"pendingQuestion,omitempty"`
	PendingChoices  []string `json:"pendingChoices,omitempty"`
	ErrorMessage    string   `json:"errorMessage,omitempty"`
	CurrentTool     string   `json:"currentTool,omitempty"`
	Usage           Usage    `json:"usage"`
	Model           string   `json:"model"`
	// Summary is what task_complete reported.
	Summary string `json:"summary,omitempty"`
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
}

// Store is the persistence Errand needs. Every method either changes
// everything it names or nothing.
type Store interface {
	CreateConversation(ctx context.Context, c Conversation) error
	GetConversation(ctx context.Context, id string) (Conversation, error)
	ListConversations(ctx context.Context) ([]ConversationSummary, error)
	RenameConversation(ctx context.Context, id, title string) (Conversation, error)
	SetAgentMode(ctx context.Context, id string, on bool) (Conversation, error)
	DeleteConversation(ctx context.Context, id string) error
	LoadConversation(ctx context.Context, id string) (ConversationView, error)
	// Messages returns the conversation's messages in order.
	Messages(ctx context.Context, conversationID string) ([]Message, error)
	// TaskMessages returns the messages a task wrote, in order.
	TaskMessages(ctx context.Context, taskID string) ([]Message, error)
	// ActiveTasks returns every task that has not ended.
	ActiveTasks(ctx context.Context) ([]Task, error)

	// StartTask stores a new task together with the user message that
	// started it, titles an untitled conversation from that message, and
	// fails with CodeConflict if the conversation already has an active task.
	StartTask(ctx context.Context, t Task, prompt Message) (Message, error)
	GetTask(ctx context.Context, id string) (Task, error)
	UpdateTask(ctx context.Context, t Task) error
	// AddMessage stores a message, assigning Seq and Rev, and bumps the
	// conversation's activity time.
	AddMessage(ctx context.Context, m Message) (Message, error)
	// AppendContent appends streamed text to a message and returns it.
	AppendContent(ctx context.Context, id, text string) (Message, error)
	// UpdateMessage replaces a message's content, tool calls and streaming flag.
	UpdateMessage(ctx context.Context, m Message) (Message, error)
	// FinishTask stores the task's final state together with the messages
	// that close it (notices, results for unanswered tool calls).
	FinishTask(ctx context.Context, t Task, msgs []Message) ([]Message, error)
}
