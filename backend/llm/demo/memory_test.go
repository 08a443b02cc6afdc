package demo

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/errand-app/errand/backend/llm/compat"
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
