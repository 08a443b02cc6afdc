// Package demo is Errand's offline demo model: a scripted OpenAI-compatible
// model served in-process on loopback, used when no model server is
// configured. In agent mode it walks through a task the way a real model
// would use Errand's tools (a progress update, a question, an answer that
// depends on the reply, task_complete), or, for a message that starts with
// "remember" or "forget", calls that memory tool, or, for "write PATH:
// TEXT", writes that file (to try "Undo changes"); in chat mode it says what
// it is and how to connect a real model.
package demo

import (
	"time"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// Model is the model name the demo server lists and answers as.
const Model = "errand-demo"

// WordDelay is the pause between streamed chunks: slow enough to watch
// the reply stream and press Stop.
const WordDelay = 25 * time.Millisecond

// Names of the agent tools the demo uses. A request with tools that lacks
// one of them gets plain text where that tool's call would be.
const (
	ToolSendUpdate   = "send_update"
	ToolAskUser      = "ask_user"
	ToolTaskComplete = "task_complete"
	// ToolEndConversation ends a conversation early (agents that allow it).
	ToolEndConversation = "end_conversation"
)

// NewServer returns the demo model as a compat.Server that needs no API
// key and lists Model. It thinks: every reply streams a short reasoning
// first, and, like DeepSeek's thinking mode, it wants that reasoning back
// on the tool calls of the current turn.
func NewServer() *compat.Server {
	s := compat.NewServer(script())
	s.Thinking = true
	s.AllowNoAuth = true
	s.Models = []string{Model}
	return s
}

// Start serves the demo model on a free loopback port until stop is
// called. baseURL ends in /v1; any API key, or none, is accepted.
func Start() (baseURL string, stop func(), err error) {
	return NewServer().Listen("127.0.0.1:0")
}
