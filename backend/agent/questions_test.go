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

// askingTool asks the person its question while it runs, as an MCP
// server's elicitation does, and returns what it was told.
type askingTool struct{ q tools.Question }

func (askingTool) Name() string           { return "srv__asks" }
func (askingTool) Description() string    { return "Asks the person." }
func (askingTool) Schema() map[string]any { return tools.Object(map[string]any{}) }
func (askingTool) Risk() tools.Risk       { return tools.RiskRead }
func (a askingTool) Run(ctx context.Context, env tools.Env, _ json.RawMessage) (tools.Result, error) {
	answer, err := env.Ask(ctx, a.q)
	if ctx.Err() != nil {
		return tools.Result{}, ctx.Err() // as an MCP call ends with its task
	}
	if err != nil {
		return tools.Result{Content: "not asked: " + err.Error(), IsError: true}, nil
	}
	return tools.Result{Content: "answered: " + answer}, nil
}

type oneTool struct{ t tools.Tool }

func (s oneTool) Tools() ([]tools.Tool, uint64) { return []tools.Tool{s.t}, 1 }
func (oneTool) Generation() uint64              { return 1 }

func TestAToolsQuestionKeepsToAskUsersLimits(t *testing.T) {
	t.Parallel()
	many := make([]string, 10001)
	for i := range many {
		many[i] = fmt.Sprintf("button %d", i)
	}
	cases := []struct {
		name string
		q    tools.Question
		want string
	}{
		{"10,001 buttons", tools.Question{Text: "Pick", Choices: many}, "at most 20"},
		{"a 12 MB question", tools.Question{Text: strings.Repeat("a", 12<<20)}, "longer than 8000 bytes"},
		{"an unanswerable rating", tools.Question{Text: "Rate", Fields: []chat.FormField{{Name: "r", Label: "R", Type: chat.FieldRating, Min: ptr(1.5), Max: ptr(1.9)}}}, "has none"},
		{"a bidi choice", tools.Question{Text: "Pick", Choices: []string{"yes\u202edelete"}}, "control or bidi"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, script(t, compat.Reply{ToolCalls: []chat.ToolCall{call("srv__asks", `{}`)}}, complete("done")),
				harnessOpts{toolSource: oneTool{askingTool{c.q}}})
			task := h.start(h.conversation(), "Go")
			h.events.waitStatus(task.ID, chat.StatusCompleted)
			assert.NotContains(t, h.events.statuses(task.ID), chat.StatusWaitingUser, "nothing was shown")
			out := lastMessages(h.server.Requests()[1], 1)[0]
			assert.Contains(t, out, "not asked")
			assert.Contains(t, out, c.want)
		})
	}
}

func TestAToolsQuestionLosesItsBidiControls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{ToolCalls: []chat.ToolCall{call("srv__asks", `{}`)}}, complete("done")),
		harnessOpts{toolSource: oneTool{askingTool{tools.Question{Text: "Allow \u202eexe.txt\u202c?\x00"}}}})
	task := h.start(h.conversation(), "Go")
	waiting := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.Equal(t, "Allow exe.txt?", waiting.PendingQuestion)
	require.NoError(t, h.runner.Respond(context.Background(), task.ID, "yes"))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}

func TestAskUserRefusesUnanswerableForms(t *testing.T) {
	t.Parallel()
	for _, args := range []string{
		`{"question":"Rate","fields":[{"name":"r","label":"R","type":"rating","min":1.5,"max":1.9}]}`,
		`{"question":"Rate","fields":[{"name":"r","label":"R","type":"rating","min":1,"max":1000000}]}`,
		`{"question":"Name","fields":[{"name":"` + strings.Repeat("n", 500) + `","label":"N","type":"text"}]}`,
	} {
		_, err := parseAskUser(json.RawMessage(args))
		assert.Error(t, err, args[:60])
	}
}

func ptr[T any](v T) *T { return &v }

// countingAsker is askingTool that counts its runs.
type countingAsker struct {
	askingTool
	runs *atomic.Int32
}

func (c countingAsker) Run(ctx context.Context, env tools.Env, args json.RawMessage) (tools.Result, error) {
	c.runs.Add(1)
	return c.askingTool.Run(ctx, env, args)
}

func TestAToolsQuestionAcrossARestartNeverReRunsTheCall(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	h := newHarness(t, script(t, compat.Reply{ToolCalls: []chat.ToolCall{call("srv__asks", `{}`)}}, complete("done")),
		harnessOpts{toolSource: oneTool{countingAsker{askingTool{tools.Question{Text: "Deploy now?"}}, &runs}}})
	conv := h.conversation()
	task := h.start(conv, "Go")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)

	interrupted, waiting := h.restart()
	assert.Equal(t, 1, interrupted, "the question died with the call that asked it")
	assert.Equal(t, 0, waiting)
	got := h.task(task.ID)
	assert.Equal(t, chat.StatusInterrupted, got.Status)
	assert.Empty(t, got.PendingQuestion)
	assert.Equal(t, int32(1), runs.Load(), "the call was not run again")
	var cut bool
	for _, m := range h.messages(conv) {
		cut = cut || (m.Role == chat.RoleTool && m.ToolName == "srv__asks" && m.Outcome == chat.OutcomeCutOff)
	}
	assert.True(t, cut, "the call is told it was cut off")
}

// manyTools offers n tools that do nothing.
type manyTools int

func (n manyTools) Tools() ([]tools.Tool, uint64) {
	out := make([]tools.Tool, int(n))
	for i := range out {
		out[i] = namedTool(fmt.Sprintf("srv__tool_%d", i))
	}
	return out, 1
}
func (manyTools) Generation() uint64 { return 1 }

type namedTool string

func (n namedTool) Name() string { return string(n) }
func (namedTool) Description() string {
	return "A tool that an MCP server offers, one of very many."
}
func (namedTool) Schema() map[string]any { return tools.Object(map[string]any{}) }
func (namedTool) Risk() tools.Risk       { return tools.RiskRead }
func (namedTool) Run(context.Context, tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{Content: "ok"}, nil
}

func TestTooManyToolsForTheContextSayThatIsTheCause(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("never asked")), harnessOpts{toolSource: manyTools(2000)})
	h.settings(func(s *chat.Settings) { s.ContextLengths = map[string]int{"test-model": 8192} })
	task := h.start(h.conversation(), "Go")
	done := h.events.waitStatus(task.ID, chat.StatusError)
	assert.Contains(t, done.ErrorMessage, "tools offered to the model take about")
	assert.Contains(t, done.ErrorMessage, "Disable the MCP servers")
	assert.Empty(t, h.server.Requests(), "nothing was sent")
}
