package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/anthropic"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeModel is the model the Claude harness talks to.
const claudeModel = "claude-test"

// newClaudeHarness is a harness whose model is Claude, through the native
// adapter, on the scripted Messages API server (as strict as the real one).
func newClaudeHarness(t *testing.T, srv *anthropictest.Server) *harness {
	t.Helper()
	st, err := store.Open(context.Background(), newDB(t))
	require.NoError(t, err)
	srv.APIKey = "sk-ant-test"
	url := srv.Start(t)
	h := &harness{t: t, store: st, url: url, workspaces: t.TempDir()}
	h.events = newRecorder(t, st)
	h.newRunner = func() *Runner {
		return New(Options{
			Store:    st,
			Provider: anthropic.New(anthropic.Config{BaseURL: url, APIKey: "sk-ant-test", Model: claudeModel, MaxRetries: -1}),
			Events:   h.events,
			Tools:    tools.Builtin(),
			Workspace: func(_ context.Context, convID string) (*tools.Workspace, error) {
				return tools.OpenWorkspace(filepath.Join(h.workspaces, convID))
			},
			Facts: st,
		})
	}
	h.runner = h.newRunner()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, h.runner.Shutdown(ctx))
		st.Close()
		require.Empty(t, srv.Rejections(), "the scripted Claude rejected a request the real API would reject")
		h.events.checkPersisted()
	})
	return h
}

func TestClaudeThinkingRunsAToolTaskToCompletion(t *testing.T) {
	t.Parallel()
	srv := anthropictest.New(func(r *anthropictest.Request) anthropictest.Reply {
		switch r.ToolResults() {
		case 0:
			return anthropictest.Reply{Thinking: "Look at the folder first.", ToolCalls: []chat.ToolCall{call("list_files", `{}`)}}
		case 1:
			return anthropictest.Reply{Thinking: "Two notes: read both.", RedactedThinking: "b3BhcXVl",
				ToolCalls: []chat.ToolCall{call("read_file", `{"path":"a.txt"}`), call("read_file", `{"path":"b.txt"}`)}}
		default:
			return anthropictest.Reply{Thinking: "Both say hello.", Text: "Both notes say hello.",
				ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"Both notes say hello."}`)}}
		}
	})
	h := newClaudeHarness(t, srv)
	h.settings(func(s *chat.Settings) { s.ReasoningEffort = map[string]chat.ReasoningEffort{claudeModel: "medium"} })
	conv := h.conversation()
	require.NoError(t, os.MkdirAll(h.workspace(conv), 0o755))
	for _, name := range []string{"a.txt", "b.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(h.workspace(conv), name), []byte("hello"), 0o644))
	}

	task := h.start(conv, "What do my notes say?")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	for i, r := range reqs {
		assert.True(t, r.ThinkingOn(), "step %d thinks", i+1)
	}
	// The last step's request carries both earlier steps' thinking, each
	// before its tool calls (the server refuses it otherwise).
	last := reqs[2].Messages
	require.GreaterOrEqual(t, len(last), 5)
	assert.Equal(t, "thinking", last[len(last)-2].Content[0].Type)
	assert.Equal(t, "redacted_thinking", last[len(last)-2].Content[1].Type)
	assert.Equal(t, "thinking", last[len(last)-4].Content[0].Type)
	assert.Equal(t, 2, countType(last[len(last)-1], "tool_result"), "the parallel calls' results share one turn")

	assert.Positive(t, done.Usage.CacheReadTokens, "later steps read the prompt from the cache")
	assert.Positive(t, done.Usage.CacheWriteTokens)
	var thoughts []string
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleAssistant && m.Reasoning != "" {
			thoughts = append(thoughts, m.Reasoning)
		}
	}
	assert.Equal(t, []string{"Look at the folder first.", "Two notes: read both.", "Both say hello."}, thoughts,
		"each step's thinking is kept apart from its answer")
}

func countType(m anthropictest.Message, kind string) int {
	n := 0
	for _, b := range m.Content {
		if b.Type == kind {
			n++
		}
	}
	return n
}
