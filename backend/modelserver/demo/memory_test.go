package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

func TestSplitFact(t *testing.T) {
	for in, want := range map[string][2]string{
		"my editor is helix.": {"my editor", "helix"},
		"name: Ada":           {"name", "Ada"},
		"x = 1":               {"x", "1"},
		"to buy milk":         {"note", "to buy milk"},
		": nothing":           {"note", ": nothing"},
	} {
		k, v := splitFact(in)
		assert.Equal(t, want, [2]string{k, v}, in)
	}
}

func TestRememberNeedsTheTool(t *testing.T) {
	req := &compat.Request{Messages: []compat.Message{{Role: "user", Content: compat.Text("remember name: Ada")}}, Tools: agentTools}
	r := Reply(req)
	assert.Equal(t, ToolSendUpdate, r.ToolCalls[0].Name, "without remember offered, the usual walkthrough")

	req.Tools = append(req.Tools, tool(ToolRemember, map[string]any{"key": map[string]any{"type": "string"}, "value": map[string]any{"type": "string"}}, "key", "value"))
	r = Reply(req)
	assert.Equal(t, ToolRemember, r.ToolCalls[0].Name)
	assert.JSONEq(t, `{"key":"name","value":"Ada","scope":"conversation"}`, r.ToolCalls[0].Arguments)
	assert.Contains(t, r.Text, "(Demo memory)")
}

func TestEchoCallsAnMCPServersEchoTool(t *testing.T) {
	req := &compat.Request{Messages: []compat.Message{{Role: "user", Content: compat.Text("echo hello there")}}, Tools: agentTools}
	r := Reply(req)
	assert.Equal(t, ToolSendUpdate, r.ToolCalls[0].Name, "without an MCP echo tool, the usual walkthrough")

	req.Tools = append(req.Tools, tool("everything__echo", map[string]any{"message": map[string]any{"type": "string"}}, "message"))
	r = Reply(req)
	assert.Equal(t, "everything__echo", r.ToolCalls[0].Name)
	assert.JSONEq(t, `{"message":"hello there"}`, r.ToolCalls[0].Arguments)

	req.Messages = append(req.Messages,
		compat.Message{Role: "assistant", ToolCalls: []compat.ToolCall{{ID: "c1", Type: "function", Function: compat.FunctionCall{Name: "everything__echo", Arguments: `{"message":"hello there"}`}}}},
		compat.Message{Role: "tool", ToolCallID: "c1", Content: compat.Text("Echo: hello there")})
	r = Reply(req)
	assert.Equal(t, ToolTaskComplete, r.ToolCalls[0].Name)
	assert.Equal(t, "(Demo MCP) everything__echo answered: Echo: hello there", r.Text)
}
