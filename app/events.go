package app

import (
	"context"
	"sync"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The events Go sends the window: every name is here, and nowhere else.
// The frontend's names come from these (frontend/src/api/contract.gen.ts,
// written by app/cmd/contract), so a name exists on both sides or on none.
const (
	// EventTaskUpdate: a task changed; the payload is the chat.Task.
	EventTaskUpdate = "agent:taskUpdate"
	// EventTaskMessage: a message was stored; the payload is a TaskMessage.
	EventTaskMessage = "agent:taskMessage"
	// EventMessageDelta: streamed text was stored; the payload is an agent.Delta.
	EventMessageDelta = "agent:messageDelta"
	// EventToolOutput: a running command's output; the payload is an agent.ToolOutput.
	EventToolOutput = "agent:toolOutput"
	// EventVariation: a variation's text so far, or the variation done;
	// the payload is an agent.Variation.
	EventVariation = "agent:variation"
	// EventConversationUpdated: the payload is the chat.Conversation.
	EventConversationUpdated = "conversation:updated"
	// EventFactsChanged tells open views that facts changed; the payload
	// is a FactsChanged.
	EventFactsChanged = "agent:factsChanged"
	// EventFilesChanged tells the task's card that its changes were undone
	// or redone; the payload is the task's chat.FilesChanged as stored.
	EventFilesChanged = "checkpoint:filesChanged"
	// EventMCPServer tells the window that a server's status or tools
	// changed; the payload is the server's mcp.State.
	EventMCPServer = "mcp:server"
	// EventOpenConversation asks the window to open a conversation (a
	// click on its notification); the payload is its id.
	EventOpenConversation = "app:openConversation"
)

// TaskMessage is the payload of agent:taskMessage.
type TaskMessage struct {
	ConversationID string       `json:"conversationId"`
	TaskID         string       `json:"taskId"`
	Message        chat.Message `json:"message"`
	// Streamed is set on a message whose stream ended with its task:
	// Message leaves out its content and reasoning, which were sent as
	// deltas, and ContentBytes and ReasoningBytes are their lengths in
	// bytes (a copy of other lengths missed some, and is read again).
	Streamed       bool `json:"streamed,omitempty"`
	ContentBytes   int  `json:"contentBytes,omitempty"`
	ReasoningBytes int  `json:"reasoningBytes,omitempty"`
}

// FactsChanged is the payload of agent:factsChanged.
type FactsChanged struct {
	// ConversationID is empty when a global fact changed.
	ConversationID string `json:"conversationId"`
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

// window is Wails' context once the window is up (nil before).
func (b *bridge) window() context.Context {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.ctx
}

func (b *bridge) emit(name string, payload any) {
	if ctx := b.window(); ctx != nil {
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

func (b *bridge) StreamEnded(e chat.StreamEnd) {
	m := e.Message
	b.emit(EventTaskMessage, TaskMessage{ConversationID: m.ConversationID, TaskID: m.TaskID, Message: m,
		Streamed: true, ContentBytes: e.ContentBytes, ReasoningBytes: e.ReasoningBytes})
}

func (b *bridge) ToolOutput(o agent.ToolOutput) { b.emit(EventToolOutput, o) }

func (b *bridge) ConversationUpdated(c chat.Conversation) { b.emit(EventConversationUpdated, c) }

// FactsChanged publishes agent:factsChanged; the runner calls it after a
// remember or forget is stored.
func (b *bridge) FactsChanged(conversationID string) {
	b.emit(EventFactsChanged, FactsChanged{ConversationID: conversationID})
}

// FilesChanged publishes checkpoint:filesChanged.
func (b *bridge) FilesChanged(c chat.FilesChanged) { b.emit(EventFilesChanged, c) }

// MCPServer publishes mcp:server; the manager calls it after each change.
func (b *bridge) MCPServer(s mcp.State) { b.emit(EventMCPServer, s) }
