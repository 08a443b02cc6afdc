package app

import (
	"context"
	"sync"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Event names the frontend subscribes to.
const (
	EventTaskUpdate          = "agent:taskUpdate"
	EventTaskMessage         = "agent:taskMessage"
	EventMessageDelta        = "agent:messageDelta"
	EventToolOutput          = "agent:toolOutput"
	EventConversationUpdated = "conversation:updated"
)

// TaskMessage is the payload of agent:taskMessage.
type TaskMessage struct {
	ConversationID string       `json:"conversationId"`
	TaskID         string       `json:"taskId"`
	Message        chat.Message `json:"message"`
}

// bridge forwards the runner's events to the window. Before the window
// exists there is nobody to tell, and events are dropped: the frontend loads
// what it shows from the database when it starts.
type bridge struct {
	mu  sync.RWMutex
	ctx context.Context
	// tasks hears every task change too (the notifier).
	tasks func(chat.Task)
}

var _ agent.Events = (*bridge)(nil)

func (b *bridge) attach(ctx context.Context) {
	b.mu.Lock()
	b.ctx = ctx
	b.mu.Unlock()
}

func (b *bridge) emit(name string, payload any) {
	b.mu.RLock()
	ctx := b.ctx
	b.mu.RUnlock()
	if ctx != nil {
		runtime.EventsEmit(ctx, name, payload)
	}
}

func (b *bridge) TaskUpdated(t chat.Task) {
	b.emit(EventTaskUpdate, t)
	if b.tasks != nil {
		b.tasks(t)
	}
}

func (b *bridge) MessageStored(m chat.Message) {
	b.emit(EventTaskMessage, TaskMessage{ConversationID: m.ConversationID, TaskID: m.TaskID, Message: m})
}

func (b *bridge) MessageDelta(d agent.Delta) { b.emit(EventMessageDelta, d) }

func (b *bridge) ToolOutput(o agent.ToolOutput) { b.emit(EventToolOutput, o) }

func (b *bridge) ConversationUpdated(c chat.Conversation) { b.emit(EventConversationUpdated, c) }
