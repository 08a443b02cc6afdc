package app

import (
	"context"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// callTimeout bounds one bound call's database work.
const callTimeout = 10 * time.Second

func callCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

func requireID(what, id string) error {
	if strings.TrimSpace(id) == "" {
		return chat.Errorf(chat.CodeInvalid, "no %s id was given", what)
	}
	return nil
}

// AgentTaskRunner is the bound face of the agent: the design's
// agent:startTask, agent:stopTask and agent:userResponse, plus simple chat.
type AgentTaskRunner struct {
	runner *agent.Runner
}

// StartTask starts an agent task on text in the conversation and returns the
// task at once; the work goes on in the background.
func (s *AgentTaskRunner) StartTask(conversationID, text string) (chat.Task, error) {
	return s.start(conversationID, text, chat.ModeAgent)
}

// SendChat sends a simple chat message: one streamed reply, no agent loop.
func (s *AgentTaskRunner) SendChat(conversationID, text string) (chat.Task, error) {
	return s.start(conversationID, text, chat.ModeChat)
}

func (s *AgentTaskRunner) start(conversationID, text string, mode chat.TaskMode) (chat.Task, error) {
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.StartTask(ctx, conversationID, text, mode)
}

// StopTask stops a task at once. Stopping a task that has ended is not an
// error: Stopped is false and Message says how it ended.
func (s *AgentTaskRunner) StopTask(taskID string) (agent.StopResult, error) {
	if err := requireID("task", taskID); err != nil {
		return agent.StopResult{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Stop(ctx, taskID)
}

// UserResponse answers the question a waiting task asked.
func (s *AgentTaskRunner) UserResponse(taskID, answer string) error {
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Respond(ctx, taskID, answer)
}

// GetTask returns a task's current state.
func (s *AgentTaskRunner) GetTask(taskID string) (chat.Task, error) {
	if err := requireID("task", taskID); err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Task(ctx, taskID)
}

// Conversations is the bound service for the conversation list and history.
type Conversations struct {
	store  chat.Store
	runner *agent.Runner
	model  ModelInfo
}

// CreateConversation starts a new, empty conversation in agent mode.
func (s *Conversations) CreateConversation() (chat.Conversation, error) {
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), AgentMode: true, CreatedAt: now, UpdatedAt: now}
	ctx, cancel := callCtx()
	defer cancel()
	if err := s.store.CreateConversation(ctx, c); err != nil {
		return chat.Conversation{}, err
	}
	return c, nil
}

// ListConversations lists every conversation, newest activity first.
func (s *Conversations) ListConversations() ([]chat.ConversationSummary, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.ListConversations(ctx)
}

// LoadConversation returns a conversation with all its messages and tasks.
func (s *Conversations) LoadConversation(id string) (chat.ConversationView, error) {
	if err := requireID("conversation", id); err != nil {
		return chat.ConversationView{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.LoadConversation(ctx, id)
}

// RenameConversation sets the conversation's title.
func (s *Conversations) RenameConversation(id, title string) (chat.Conversation, error) {
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		return chat.Conversation{}, chat.Errorf(chat.CodeInvalid, "the title is empty")
	}
	if len([]rune(title)) > 200 {
		return chat.Conversation{}, chat.Errorf(chat.CodeInvalid, "the title is longer than 200 characters")
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.RenameConversation(ctx, id, title)
}

// SetAgentMode remembers the conversation's "Agent mode" toggle.
func (s *Conversations) SetAgentMode(id string, on bool) (chat.Conversation, error) {
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.SetAgentMode(ctx, id, on)
}

// DeleteConversation deletes a conversation, stopping its task first.
func (s *Conversations) DeleteConversation(id string) error {
	if err := requireID("conversation", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if t, ok := s.runner.ActiveTask(id); ok {
		if _, err := s.runner.Stop(ctx, t.ID); err != nil {
			return err
		}
	}
	return s.store.DeleteConversation(ctx, id)
}

// ModelInfo tells which model answers, and whether it is the demo.
func (s *Conversations) ModelInfo() ModelInfo { return s.model }
