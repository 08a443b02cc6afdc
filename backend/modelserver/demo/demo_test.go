package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

// agentTools are the tools as the agent offers them.
var agentTools = []compat.Tool{
	tool(ToolSendUpdate, map[string]any{"message": map[string]any{"type": "string"}}, "message"),
	tool(ToolAskUser, map[string]any{
		"question": map[string]any{"type": "string"},
		"choices":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}, "question"),
	tool(ToolTaskComplete, map[string]any{"summary": map[string]any{"type": "string"}}, "summary"),
}

func tool(name string, props map[string]any, required ...string) compat.Tool {
	return compat.Tool{Type: "function", Function: &compat.FunctionDef{
		Name:       name,
		Parameters: map[string]any{"type": "object", "properties": props, "required": toAny(required)},
	}}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// fastServer serves the demo script without its pauses.
func fastServer(t *testing.T) (*compat.Server, string) {
	t.Helper()
	s := compat.NewServer(func(r *compat.Request) compat.Reply {
		reply := Reply(r)
		assert.Equal(t, WordDelay, reply.ChunkDelay, "the demo streams at a visible pace")
		reply.ChunkDelay = 0
		return reply
	})
	s.AllowNoAuth = true
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL + "/v1"
}

// conversation is a transcript the test sends turn by turn, as the agent does.
type conversation struct {
	t       *testing.T
	baseURL string
	tools   []compat.Tool
	msgs    []compat.Message
}

func newConversation(t *testing.T, baseURL string, tools []compat.Tool, prompt string) *conversation {
	return &conversation{t: t, baseURL: baseURL, tools: tools, msgs: []compat.Message{
		{Role: "system", Content: compat.Text("You are Errand, an agent.")},
		{Role: "user", Content: compat.Text(prompt)},
	}}
}

// turn sends the transcript, checks the reply's tool calls against the
// tools' schemas and appends the reply to the transcript.
func (c *conversation) turn() compat.Result {
	c.t.Helper()
	req := &compat.Request{Model: Model, Messages: c.msgs, Tools: c.tools, Stream: true, StreamOptions: &compat.StreamOptions{IncludeUsage: true}}
	res, err := compat.Do(context.Background(), c.baseURL, "", req)
	require.NoError(c.t, err)
	require.True(c.t, res.Done)
	require.NotNil(c.t, res.Usage)
	for _, call := range res.ToolCalls {
		checkArgs(c.t, c.tools, call)
	}
	c.msgs = append(c.msgs, res.Message())
	return res
}

// answer appends the result of the last reply's only tool call.
func (c *conversation) answer(content string) {
	last := c.msgs[len(c.msgs)-1]
	require.Len(c.t, last.ToolCalls, 1)
	c.msgs = append(c.msgs, compat.ToolResult(last.ToolCalls[0].ID, content))
}

// checkArgs asserts that a call names an offered tool and that its
// arguments are a JSON object with every required property, of the
// declared type where that is "string".
func checkArgs(t *testing.T, tools []compat.Tool, call chat.ToolCall) {
	t.Helper()
	var def *compat.FunctionDef
	for _, tl := range tools {
		if tl.Function.Name == call.Name {
			def = tl.Function
		}
	}
	require.NotNil(t, def, "call of a tool not offered: %s", call.Name)
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(call.Arguments), &args), "arguments of %s", call.Name)
	props := def.Parameters["properties"].(map[string]any)
	for _, r := range def.Parameters["required"].([]any) {
		assert.Contains(t, args, r, "%s lacks %s", call.Name, r)
	}
	for name, v := range args {
		require.Contains(t, props, name, "%s has unknown argument %s", call.Name, name)
		if props[name].(map[string]any)["type"] == "string" {
			assert.IsType(t, "", v, "%s.%s", call.Name, name)
		}
	}
}

func argsOf(t *testing.T, call chat.ToolCall) map[string]any {
	t.Helper()
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(call.Arguments), &args))
	return args
}

func TestAgentWalkthrough(t *testing.T) {
	for _, tc := range []struct {
		choice, want, shape string
	}{
		{choiceSummary, "Here's a short summary for", "a short summary"},
		{choiceChecklist, "\n\n1. Understand the request", "a checklist"},
	} {
		t.Run(tc.choice, func(t *testing.T) {
			s, url := fastServer(t)
			c := newConversation(t, url, agentTools, "Plan a   weekend trip to Lisbon for two people, with museums and food markets")

			// Step 1: a plan and a progress update.
			res := c.turn()
			assert.Equal(t, intro, res.Text)
			require.Len(t, res.ToolCalls, 1)
			assert.Equal(t, ToolSendUpdate, res.ToolCalls[0].Name)
			assert.Equal(t, "Planning: Plan a weekend trip to Lisbon for two people, with museums…", argsOf(t, res.ToolCalls[0])["message"])
			assert.Equal(t, "tool_calls", res.FinishReason)
			c.answer("ok")

			// Step 2: a question with choices.
			res = c.turn()
			require.Len(t, res.ToolCalls, 1)
			assert.Equal(t, ToolAskUser, res.ToolCalls[0].Name)
			assert.Equal(t, map[string]any{"question": question, "choices": []any{choiceSummary, choiceChecklist}}, argsOf(t, res.ToolCalls[0]))
			c.answer(tc.choice)

			// Step 3: an answer shaped by the choice, then task_complete.
			res = c.turn()
			assert.Contains(t, res.Text, tc.want)
			assert.Contains(t, res.Text, "Lisbon")
			assert.True(t, strings.HasSuffix(res.Text, connect), "ends by saying how to connect a real model")
			assert.Contains(t, res.Text, "Connect a model")
			require.Len(t, res.ToolCalls, 1)
			assert.Equal(t, ToolTaskComplete, res.ToolCalls[0].Name)
			assert.Contains(t, argsOf(t, res.ToolCalls[0])["summary"], tc.shape)

			// Feeding the whole task back still validates.
			c.answer("Task complete.")
			c.turn()
			assert.Empty(t, s.Rejections())
			assert.Len(t, s.Requests(), 4)
		})
	}
}

func TestChecklistAndSummaryDiffer(t *testing.T) {
	summary, _ := answer("x", choiceSummary)
	checklist, _ := answer("x", choiceChecklist)
	assert.NotContains(t, summary, "1.")
	assert.Contains(t, checklist, "5. Wrap up")
	typed, shape := answer("x", "steps please")
	assert.Equal(t, checklist, typed)
	assert.Equal(t, "a checklist", shape)
}

func TestAgentNudgeAndOddTurnsFinish(t *testing.T) {
	_, url := fastServer(t)

	// The runner's automatic nudge after a text-only reply.
	c := newConversation(t, url, agentTools, "Do something")
	c.msgs = append(c.msgs,
		compat.Message{Role: "assistant", Content: compat.Text("Some text without a tool call.")},
		compat.Message{Role: "user", Content: compat.Text("(automatic) Please call task_complete when you are done.")})
	res := c.turn()
	assert.Empty(t, res.Text)
	require.Len(t, res.ToolCalls, 1)
	assert.Equal(t, ToolTaskComplete, res.ToolCalls[0].Name)

	// A result of a tool the script never calls.
	c = newConversation(t, url, agentTools, "Do something")
	c.msgs = append(c.msgs,
		compat.Message{Role: "assistant", ToolCalls: []compat.ToolCall{{ID: "call_x", Type: "function", Function: compat.FunctionCall{Name: "read_file", Arguments: "{}"}}}},
		compat.Message{Role: "tool", ToolCallID: "call_x", Content: compat.Text("contents")})
	res = c.turn()
	require.Len(t, res.ToolCalls, 1)
	assert.Equal(t, ToolTaskComplete, res.ToolCalls[0].Name)
}

func TestAgentWithoutScriptTools(t *testing.T) {
	s, url := fastServer(t)
	other := []compat.Tool{tool("read_file", map[string]any{"path": map[string]any{"type": "string"}}, "path")}
	c := newConversation(t, url, other, "Summarise my notes")
	res := c.turn()
	assert.Empty(t, res.ToolCalls, "no call of a tool that is not offered")
	assert.Contains(t, res.Text, intro)
	assert.Contains(t, res.Text, "send_update")
	assert.Equal(t, "stop", res.FinishReason)
	assert.Empty(t, s.Rejections())
}

func TestChat(t *testing.T) {
	s, url := fastServer(t)
	c := newConversation(t, url, nil, "What's the capital of France?")
	res := c.turn()
	assert.Empty(t, res.ToolCalls)
	assert.Contains(t, res.Text, "offline demo model")
	assert.Contains(t, res.Text, "“What's the capital of France?”")
	assert.Contains(t, res.Text, "Connect a model")

	// A second message in the same conversation echoes the new one.
	c.msgs = append(c.msgs, compat.Message{Role: "user", Content: compat.Text(strings.Repeat("very long message ", 10))})
	res = c.turn()
	assert.Contains(t, res.Text, "“very long message very long message very long message very…”")
	assert.Empty(t, s.Rejections())
}

// Start serves the demo model: it lists itself and answers (at the pace
// its script sets, see the ChunkDelay check above; no test times it).
func TestStartServesTheDemoModel(t *testing.T) {
	baseURL, stop, err := Start()
	require.NoError(t, err)
	defer stop()

	resp, err := http.Get(baseURL + "/models")
	require.NoError(t, err)
	var list compat.ModelList
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()
	require.Len(t, list.Data, 1)
	assert.Equal(t, Model, list.Data[0].ID)

	c := newConversation(t, baseURL, agentTools, "Tidy my desk")
	res := c.turn()
	assert.Equal(t, ToolSendUpdate, res.ToolCalls[0].Name)
}

func TestEcho(t *testing.T) {
	assert.Equal(t, "short text", echo("  short \n text "))
	long := "one two three four five six seven eight nine ten eleven twelve thirteen"
	got := echo(long)
	assert.Equal(t, "one two three four five six seven eight nine ten eleven…", got)
	assert.LessOrEqual(t, len([]rune(got)), echoLen+1)
	unbroken := strings.Repeat("é", 100)
	assert.Equal(t, strings.Repeat("é", echoLen)+"…", echo(unbroken))
}

func TestTheDemoModelSummarisesWhenAskedTo(t *testing.T) {
	req := contextwin.SummaryRequest("", "User: read the files\nAssistant: done\n")
	creq := &compat.Request{Model: Model}
	for _, m := range req.Messages {
		creq.Messages = append(creq.Messages, compat.Message{Role: string(m.Role), Content: compat.Text(m.Content)})
	}
	r := Reply(creq)
	assert.Contains(t, r.Text, "Summary")
	assert.Contains(t, r.Text, "read the files")
	assert.Empty(t, r.ToolCalls)
}
