package agent

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/mcp/mcptest"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everything runs the real server-everything as the MCP server "everything"
// and waits until it offers every tool named.
func everything(t *testing.T, risks map[string]string, want ...string) *mcp.Manager {
	t.Helper()
	changed := make(chan struct{}, 1)
	m := mcp.NewManager(mcp.Options{Changed: func(mcp.State) {
		select {
		case changed <- struct{}{}:
		default:
		}
	}})
	t.Cleanup(m.Close)
	cfg := mcptest.Everything(t, "everything")
	cfg.ID, cfg.ToolRisks = "everything", risks
	m.Set([]chat.MCPServer{cfg})
	deadline := time.After(60 * time.Second)
	for {
		list, _ := m.Tools()
		have := map[string]bool{}
		for _, tl := range list {
			have[tl.Name()] = true
		}
		if !slices.ContainsFunc(want, func(n string) bool { return !have[n] }) {
			return m
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("server-everything did not offer %v; state: %+v", want, m.States())
		}
	}
}

func toolResult(msgs []chat.Message, tool string) string {
	for _, m := range msgs {
		if m.Role == chat.RoleTool && m.ToolName == tool {
			return m.Content
		}
	}
	return ""
}

func TestAnMCPToolIsApprovedLikeABuiltIn(t *testing.T) {
	t.Parallel()
	m := everything(t, map[string]string{"echo": "writes"}, "everything__echo")
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__echo", `{"message":"hi from MCP"}`)}},
		complete("echoed"),
	), harnessOpts{toolSource: m})
	conv := h.conversation()
	task := h.start(conv, "Echo something")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	assert.Equal(t, "everything__echo", a.Tool)
	assert.Equal(t, "writes", a.Risk, "the person's override")
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, a.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Contains(t, toolResult(h.messages(conv), "everything__echo"), "hi from MCP")
	reqs := h.server.Requests()
	assert.True(t, contains(lastMessages(reqs[len(reqs)-1], 1), "hi from MCP"), "the model reads the result")
	assert.True(t, slices.ContainsFunc(reqs[0].Tools, func(tl compat.Tool) bool { return tl.Function != nil && tl.Function.Name == "everything__get-sum" }),
		"the model is offered the server's tools")
}

func TestAnMCPCallWithBadArgumentsIsRefusedByItsSchema(t *testing.T) {
	t.Parallel()
	m := everything(t, nil, "everything__get-sum")
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__get-sum", `{"a":"two"}`)}},
		complete("gave up"),
	), harnessOpts{toolSource: m})
	conv := h.conversation()
	task := h.start(conv, "Add")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	res := toolResult(h.messages(conv), "everything__get-sum")
	assert.Contains(t, res, "do not match its schema")
}

func TestStopCancelsAnInFlightMCPCallAtOnce(t *testing.T) {
	t.Parallel()
	// The operation lasts an hour: it never ends by itself while the test
	// runs, so a task that ends and a loop that returns can only have been
	// cut by Stop, without waiting for the server. How quickly is a figure
	// (docs/BENCHMARKS.md, MCP tool calls), never a bound here.
	m := everything(t, nil, "everything__trigger-long-running-operation", "everything__echo")
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__trigger-long-running-operation", `{"duration":3600,"steps":1}`)}},
	), harnessOpts{toolSource: m})
	conv := h.conversation()
	task := h.start(conv, "Run the long operation")
	h.events.waitStatus(task.ID, chat.StatusToolExecuting)

	res, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	require.True(t, res.Stopped)
	h.events.waitStatus(task.ID, chat.StatusCancelled)
	// The task's own goroutine is gone too: it did not wait for the server.
	h.loopsReturned()
	assert.Empty(t, openToolCalls(h.messages(conv)))

	// The server is still there for the next task.
	list, _ := m.Tools()
	for _, tl := range list {
		if tl.Name() == "everything__echo" {
			out, err := tl.Run(context.Background(), tools.Env{}, []byte(`{"message":"still here"}`))
			require.NoError(t, err)
			assert.Contains(t, out.Content, "still here")
		}
	}
}

func TestAnElicitationIsAnsweredInline(t *testing.T) {
	t.Parallel()
	m := everything(t, nil, "everything__trigger-elicitation-request")
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__trigger-elicitation-request", `{}`)}},
		complete("asked"),
	), harnessOpts{toolSource: m})
	conv := h.conversation()
	task := h.start(conv, "Ask me for my details")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, a.CallID, false))

	q := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.Contains(t, q.PendingQuestion, "Please provide inputs")
	require.NotEmpty(t, q.PendingFields, "the elicitation is a form")
	assert.Equal(t, "name", q.PendingFields[0].Name)
	assert.True(t, q.PendingFields[0].Required)
	// A form answer without the required name is refused at the form.
	err := h.runner.Respond(context.Background(), task.ID, `{"check": true}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "name")
	require.NoError(t, h.runner.Respond(context.Background(), task.ID, `{"name": "Ada Lovelace", "check": true}`))

	h.events.waitStatus(task.ID, chat.StatusCompleted)
	res := toolResult(h.messages(conv), "everything__trigger-elicitation-request")
	assert.Contains(t, res, "Name: Ada Lovelace")
	statuses := compactStatuses(h.events.statuses(task.ID))
	i := slices.Index(statuses, chat.StatusWaitingUser)
	require.Positive(t, i)
	assert.Contains(t, statuses[i+1:], chat.StatusToolExecuting, "the call shows as running on after the answer")
	assert.False(t, strings.Contains(res, "declined"))
}
