package agent

import (
	"context"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// Store is what the runner reads and writes: the methods of chat.Store it
// calls, and no more (chat.Store documents each). The app's store serves
// it; a test may wrap one to count or fail a call.
type Store interface {
	// Conversations and their agents.
	GetConversation(ctx context.Context, id string) (chat.Conversation, error)
	Agent(ctx context.Context, id string) (chat.AgentDefinition, error)
	LastTaskAgent(ctx context.Context, conversationID string) (string, bool, error)
	EndConversation(ctx context.Context, id string, end chat.ConversationEnd) (chat.Conversation, error)

	// Tasks, from start to end.
	StartTask(ctx context.Context, t chat.Task, prompt chat.Message) (chat.Message, error)
	StartTaskFrom(ctx context.Context, t chat.Task, prompt chat.Message, afterID string) (chat.Message, error)
	GetTask(ctx context.Context, id string) (chat.Task, error)
	UpdateTask(ctx context.Context, t chat.Task) error
	ActiveTasks(ctx context.Context) ([]chat.Task, error)
	TurnOf(ctx context.Context, conversationID, replyID string) (chat.Turn, error)
	AddConversationUsage(ctx context.Context, conversationID string, u chat.Usage, costUSD float64) error
	SavePlan(ctx context.Context, taskID string, steps []chat.PlanStep, note string) (chat.Plan, error)
	Record(ctx context.Context, t chat.Task, msgs []chat.Message) ([]chat.Message, error)
	FinishTask(ctx context.Context, t chat.Task, msgs []chat.Message) (chat.Finished, error)

	// Messages of the transcript.
	Messages(ctx context.Context, conversationID string) ([]chat.Message, error)
	MessagesSince(ctx context.Context, conversationID string, afterSeq int64) ([]chat.Message, error)
	GetMessage(ctx context.Context, conversationID, id string) (chat.Message, error)
	TaskCalls(ctx context.Context, taskID string) ([]chat.Message, error)
	AddMessage(ctx context.Context, m chat.Message) (chat.Message, error)
	AddVersion(ctx context.Context, m chat.Message, of string) (chat.Message, error)
	AppendContent(ctx context.Context, id, text string) (chat.Appended, error)
	AppendReasoning(ctx context.Context, id, text string) (chat.Appended, error)
	UpdateMessage(ctx context.Context, m chat.Message) (chat.Message, error)
	TakeQueued(ctx context.Context, taskID string) ([]chat.Message, error)
	MarkDelivered(ctx context.Context, conversationID, id string) (chat.Message, error)

	// Summaries of compacted history.
	AddSummary(ctx context.Context, s chat.Summary, notice chat.Message) (chat.Message, error)
	LatestSummary(ctx context.Context, conversationID string) (s chat.Summary, ok bool, err error)
	GetSummary(ctx context.Context, id string) (chat.Summary, error)

	// Settings, where the runner learns a model's context length.
	Settings(ctx context.Context) (chat.Settings, error)
	SaveSettings(ctx context.Context, s chat.Settings) error

	// The models that refused tools, by provider settings (toolsKey).
	ToolsRefused(ctx context.Context, key string) (bool, error)
	RememberToolsRefused(ctx context.Context, key string, at time.Time) error
	ForgetToolsRefused(ctx context.Context) error
}

// The app's store serves the runner.
var _ Store = chat.Store(nil)
