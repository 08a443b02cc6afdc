package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// growingTools offers n namedTools, n set by the test: an MCP server whose
// tools come while Errand runs.
type growingTools struct{ n atomic.Int64 }

func (g *growingTools) Tools() ([]tools.Tool, uint64) {
	n := g.n.Load()
	out := make([]tools.Tool, n)
	for i := range out {
		out[i] = namedTool(fmt.Sprintf("srv__tool_%d", i))
	}
	return out, uint64(n) + 1
}
func (g *growingTools) Generation() uint64 { return uint64(g.n.Load()) + 1 }

// What every request repeats — the instructions, the tools, the facts — is
// counted once for all tasks, and counted again when it changes: each
// change below reaches the next task's request and its counted size.
func TestWhatEveryRequestRepeatsIsSeenAgainWhenItChanges(t *testing.T) {
	t.Parallel()
	// A reported usage of one token keeps the count's calibration at 1, so
	// that the counted sizes compare exactly.
	done := compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)},
		Usage: chat.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}}
	src := &growingTools{}
	h := newHarness(t, script(t, done, done, done, done, done), harnessOpts{toolSource: src})
	run := func() (chat.Task, compat.Request) {
		t.Helper()
		task := h.start(h.conversation(), "Go")
		finished := h.events.waitStatus(task.ID, chat.StatusCompleted)
		reqs := h.server.Requests()
		return finished, reqs[len(reqs)-1]
	}

	first, _ := run()
	again, _ := run()
	assert.Equal(t, first.ContextTokens, again.ContextTokens, "nothing changed: the same request, the same count")

	custom := strings.Repeat("Check every figure twice before you report it. ", 100)
	h.settings(func(s *chat.Settings) { s.SystemPrompt = custom })
	instructed, req := run()
	assert.Contains(t, req.Messages[0].Text(), "Check every figure twice")
	assert.Greater(t, instructed.ContextTokens, again.ContextTokens+500, "the new instructions are counted")

	src.n.Store(30)
	tooled, req := run()
	assert.True(t, hasTool(req, "srv__tool_29"), "the MCP server's new tools are offered")
	assert.Greater(t, tooled.ContextTokens, instructed.ContextTokens+30*10, "and counted")

	_, err := h.store.RememberFact(context.Background(), chat.Fact{Scope: chat.ScopeGlobal, Key: "report style",
		Value: strings.Repeat("Tables, never prose. ", 40)})
	require.NoError(t, err)
	remembered, req := run()
	assert.Contains(t, req.Messages[0].Text(), "Tables, never prose.", "a fact stored meanwhile is in the next request")
	assert.Greater(t, remembered.ContextTokens, tooled.ContextTokens+100, "and counted")
}

func hasTool(req compat.Request, name string) bool {
	for _, tl := range req.Tools {
		if tl.Function.Name == name {
			return true
		}
	}
	return false
}

// revisedTool is an MCP server's one tool, "srv__lookup", whose argument
// the server renames when it is updated (gen counts its versions).
type revisedTool struct{ gen atomic.Int64 }

func (r *revisedTool) Tools() ([]tools.Tool, uint64) {
	g := r.Generation()
	return []tools.Tool{lookupTool(fmt.Sprintf("field_v%d", g))}, g
}
func (r *revisedTool) Generation() uint64 { return uint64(r.gen.Load()) + 1 }

// lookupTool is srv__lookup taking one argument of its name.
type lookupTool string

func (lookupTool) Name() string        { return "srv__lookup" }
func (lookupTool) Description() string { return "Looks a record up." }
func (l lookupTool) Schema() map[string]any {
	return tools.Object(map[string]any{string(l): map[string]any{"type": "string"}})
}
func (lookupTool) Risk() tools.Risk { return tools.RiskRead }
func (lookupTool) Run(context.Context, tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{Content: "ok"}, nil
}

// The tools' definitions are encoded for the model once for all requests:
// a tool that keeps its name but changes its arguments is sent changed in
// the next request.
func TestAToolChangedUnderTheSameNameIsSentChanged(t *testing.T) {
	t.Parallel()
	done := compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)}}
	src := &revisedTool{}
	h := newHarness(t, script(t, done, done, done), harnessOpts{toolSource: src})
	lookupArgs := func() map[string]any {
		t.Helper()
		task := h.start(h.conversation(), "Go")
		h.events.waitStatus(task.ID, chat.StatusCompleted)
		reqs := h.server.Requests()
		for _, tl := range reqs[len(reqs)-1].Tools {
			if tl.Function != nil && tl.Function.Name == "srv__lookup" {
				props, _ := tl.Function.Parameters["properties"].(map[string]any)
				return props
			}
		}
		t.Fatal("srv__lookup was not offered")
		return nil
	}

	assert.Contains(t, lookupArgs(), "field_v1")
	assert.Contains(t, lookupArgs(), "field_v1", "unchanged, it is sent the same")
	src.gen.Store(1)
	args := lookupArgs()
	assert.Contains(t, args, "field_v2", "the server's new version is sent")
	assert.NotContains(t, args, "field_v1")
}
