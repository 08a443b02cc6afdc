package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// useAgent stores d and makes it the conversation's agent.
func (h *harness) useAgent(conv string, d chat.AgentDefinition) {
	h.t.Helper()
	ctx := context.Background()
	if !chat.IsBuiltinAgent(d.ID) {
		_, err := h.store.CreateAgent(ctx, d)
		require.NoError(h.t, err)
	}
	_, err := h.store.SetAgent(ctx, conv, d.ID)
	require.NoError(h.t, err)
}

// withAgentModels makes the runner pick the agent's model, as Errand does
// when the conversation has none of its own.
func (h *harness) withAgentModels() {
	old := h.newRunner
	h.newRunner = func() *Runner {
		r := old()
		r.opts.Providers = func(_ context.Context, _ string, agentModel string) (llm.Provider, error) {
			if agentModel == "" {
				agentModel = "test-model"
			}
			return openai.New(openai.Config{BaseURL: h.url, APIKey: "test-key", Model: agentModel, MaxRetries: -1}), nil
		}
		return r
	}
	h.runner = h.newRunner()
}

func toolNames(req compat.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

var reader = chat.AgentDefinition{
	ID: "reader", Name: "Reader", Mode: chat.ChatReactive, CanUserType: true,
	Instructions: "You are Reader. Only ever read files.",
	Tools:        []string{"read_file"}, Model: "reader-model",
	Limits: chat.Limits{MaxSteps: 7},
}

func TestARequestIsBuiltFromTheAgentsDefinition(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("write_file", `{"path":"a.txt","content":"x"}`)}},
		complete("read only"),
	), harnessOpts{})
	h.withAgentModels()
	conv := h.conversation()
	h.useAgent(conv, reader)

	task := h.start(conv, "Look around")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, "reader", done.AgentID)
	assert.Equal(t, 7, done.Limits.MaxSteps, "the agent's step limit")
	assert.Equal(t, chat.DefaultSettings().Limits.MaxMinutes, done.Limits.MaxMinutes, "the settings' limit where the agent sets none")

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	first := reqs[0]
	assert.Equal(t, "reader-model", first.Model, "the agent's model")
	assert.ElementsMatch(t, []string{"read_file", ToolTaskComplete, ToolAskUser, ToolSendUpdate, ToolRemember, ToolForget, ToolUpdatePlan}, toolNames(first),
		"only the agent's tools plus the control tools")
	system := first.Messages[0].Text()
	assert.True(t, strings.HasPrefix(system, reader.Instructions), "the agent's instructions come first")
	assert.Contains(t, system, "## Agentic Mode", "Errand's agentic-mode rules follow")
	assert.NotContains(t, system, "You are Errand")

	// The call outside the definition was refused like an unknown tool.
	res := lastMessages(reqs[1], 1)[0]
	assert.Contains(t, res, `unknown tool "write_file"`)
	assert.Contains(t, res, "The tools you can use are: task_complete, ask_user, send_update, remember, forget, update_plan, read_file")
	_, err := h.store.Agent(context.Background(), "reader")
	require.NoError(t, err)
	assert.NoFileExists(t, h.workspace(conv)+"/a.txt")
}

func TestTheModelIsToldOfASwitchOfAgents(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("one"), complete("two"), complete("three")), harnessOpts{})
	conv := h.conversation()
	h.events.waitEnded(h.start(conv, "First").ID)
	h.useAgent(conv, reader)
	h.events.waitEnded(h.start(conv, "Second").ID)
	h.events.waitEnded(h.start(conv, "Third").ID)
	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	assert.NotContains(t, reqs[0].Messages[0].Text(), "Agent switched")
	assert.Contains(t, reqs[1].Messages[0].Text(), "switched this conversation to you from the agent Errand")
	assert.NotContains(t, reqs[2].Messages[0].Text(), "Agent switched", "only the first task after the switch")
}

const form = `{"question":"About you","fields":[
	{"name":"name","label":"Name","type":"text","required":true},
	{"name":"age","label":"Age","type":"number","min":0,"max":130},
	{"name":"role","label":"Role","type":"select","options":["Dev","Ops"],"required":true}],
	"input":{"disabled":true,"placeholder":"Use the form"}}`

var proactive = chat.AgentDefinition{
	ID: "greeter", Name: "Greeter", Mode: chat.ChatProactive, AllowEarlyTermination: true,
	Instructions: "You are Greeter.", Opening: "Ask who the person is with a form.",
}

func TestAProactiveAgentSpeaksFirstWithAFormWhoseAnswerIsChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Hello!", ToolCalls: []chat.ToolCall{call(ToolAskUser, form)}},
		complete("met"),
	), harnessOpts{})
	conv := h.conversation()
	ctx := context.Background()
	_, err := h.runner.StartProactive(ctx, conv)
	require.Error(t, err, "Errand waits for the person")

	h.useAgent(conv, proactive)
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)
	waiting := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.Equal(t, "About you", waiting.PendingQuestion)
	require.Len(t, waiting.PendingFields, 3)
	require.NotNil(t, waiting.Input)
	require.NotNil(t, waiting.Input.Disabled)
	assert.True(t, *waiting.Input.Disabled)
	assert.Equal(t, "Use the form", waiting.Input.Placeholder)

	first := h.server.Requests()[0]
	require.Len(t, first.Messages, 2, "the system prompt and the opening: no message from the person")
	assert.Equal(t, "user", first.Messages[1].Role)
	assert.Contains(t, first.Messages[1].Text(), "Ask who the person is with a form.")
	for _, m := range h.messages(conv) {
		assert.NotEqual(t, chat.RoleUser, m.Role, "nothing was stored as the person's")
	}
	c, err := h.store.GetConversation(ctx, conv)
	require.NoError(t, err)
	assert.Equal(t, "Greeter", c.Title)

	for _, bad := range []string{`{"age":30,"role":"Dev"}`, `{"name":"Ann","role":"CEO"}`, `{"name":"Ann","role":"Dev","age":200}`, `not json`} {
		err := h.runner.Respond(ctx, task.ID, bad)
		require.Error(t, err, bad)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), bad)
	}
	assert.Equal(t, chat.StatusWaitingUser, h.task(task.ID).Status, "a wrong answer changes nothing")
	assert.Len(t, h.server.Requests(), 1, "and reaches no model")

	require.NoError(t, h.runner.Respond(ctx, task.ID, `{"role":"Ops","name":" Ann ","age":"41"}`))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Nil(t, done.Input, "the input hint ends with the question")
	assert.Equal(t, `tool: {"name":"Ann","age":41,"role":"Ops"}`, lastMessages(h.server.Requests()[1], 1)[0], "the model gets the answer as JSON")
}

func TestAFormQuestionIsAnsweredAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, form)}},
		complete("met"),
	), harnessOpts{})
	conv := h.conversation()
	h.useAgent(conv, proactive)
	ctx := context.Background()
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)

	_, waiting := h.restart()
	assert.Equal(t, 1, waiting)
	got := h.task(task.ID)
	require.Len(t, got.PendingFields, 3, "the form survives the restart")
	assert.Equal(t, "Role", got.PendingFields[2].Label)
	require.Error(t, h.runner.Respond(ctx, task.ID, `{"name":"Ann"}`), "and is still checked")
	require.NoError(t, h.runner.Respond(ctx, task.ID, `{"name":"Ann","role":"Dev"}`))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2, "the question was not asked of the model again")
	assert.Equal(t, `tool: {"name":"Ann","role":"Dev"}`, lastMessages(reqs[1], 1)[0])
	assert.Contains(t, reqs[1].Messages[1].Text(), "(automatic)", "the resumed proactive task keeps its opening")
}

func TestSeveralChoicesAreAnsweredAsAJSONArray(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which?","choices":["A","B","C"],"multiple":true}`)}},
		complete("picked"),
	), harnessOpts{})
	conv := h.conversation()
	ctx := context.Background()
	task := h.start(conv, "Pick")
	w := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.True(t, w.PendingMultiple)
	require.Error(t, h.runner.Respond(ctx, task.ID, `["A","Z"]`), "Z is no choice and Other is not allowed")
	require.Error(t, h.runner.Respond(ctx, task.ID, `[]`))
	require.NoError(t, h.runner.Respond(ctx, task.ID, `["C","A"]`))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, `tool: ["C","A"]`, lastMessages(h.server.Requests()[1], 1)[0])
}

func TestABadWidgetGetsAnErrorResultAndTheTaskGoesOn(t *testing.T) {
	t.Parallel()
	many := make([]string, 500)
	for i := range many {
		many[i] = `"o` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `"`
	}
	bad := []string{
		`{"question":"Q","fields":[{"name":"a","label":"A","type":"colour"}]}`,
		`{"question":"Q","fields":[{"name":"a","label":"A","type":"text"},{"name":"a","label":"B","type":"text"}]}`,
		`{"question":"Q","choices":[` + strings.Join(many, ",") + `]}`,
		`{"question":"Q","fields":[{"name":"a","type":"text"}]}`,
	}
	var replies []compat.Reply
	for i, b := range bad {
		replies = append(replies, compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, b)}})
		if i%2 == 1 {
			replies = append(replies, compat.Reply{ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"trying again"}`)}})
		}
	}
	replies = append(replies, complete("gave up asking"))
	h := newHarness(t, script(t, replies...), harnessOpts{})
	roomFor(h)
	conv := h.conversation()
	task := h.start(conv, "Ask me")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)

	var results []string
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleTool && m.ToolName == ToolAskUser {
			assert.True(t, m.IsError, m.Content)
			results = append(results, m.Content)
		}
	}
	require.Len(t, results, 4)
	assert.Contains(t, results[0], "fields/0/type")
	assert.Contains(t, results[1], `two fields are named "a"`)
	assert.Contains(t, results[2], "at most 20")
	assert.Contains(t, results[3], "label")
}

var exam = chat.AgentDefinition{
	ID: "exam", Name: "Exam", Mode: chat.ChatProactive, ShowHistory: false, ShowEndButton: false,
	Instructions: "You are Exam.", Opening: "Ask the first question.",
}

func TestAQuestionsHintShapesTheWindowAndABadOneIsRefusedClearly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(call(ToolAskUser, `{"question":"2+2?","choices":["3","4"],"input":{"show_history":"no"}}`)),
		reply(call(ToolAskUser, `{"question":"2+2?","choices":["3","4"],"input":{"show_history":false,"show_end_button":true}}`)),
		complete("scored"),
	), harnessOpts{})
	conv := h.conversation()
	h.useAgent(conv, exam)
	ctx := context.Background()
	d, err := h.store.Agent(ctx, exam.ID)
	require.NoError(t, err)
	assert.False(t, d.ShowHistory || d.ShowEndButton, "the definition keeps both")
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)

	refused := resultsOf(h.messages(conv), ToolAskUser)
	require.Len(t, refused, 1)
	assert.True(t, refused[0].IsError)
	assert.Contains(t, refused[0].Content, "show_history", "the model is told which hint is wrong")

	_, waiting := h.restart()
	require.Equal(t, 1, waiting)
	got := h.task(task.ID)
	require.NotNil(t, got.Input)
	require.NotNil(t, got.Input.ShowHistory)
	require.NotNil(t, got.Input.ShowEndButton)
	assert.False(t, *got.Input.ShowHistory, "the hint survives a restart")
	assert.True(t, *got.Input.ShowEndButton)
	require.NoError(t, h.runner.Respond(ctx, task.ID, "4"))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
}
