package demo

import (
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// mcpEchoSuffix ends the name of an MCP server's echo tool (server__echo,
// as server-everything offers it).
const mcpEchoSuffix = "__echo"

// mcpLabel starts every MCP reply of the demo.
const mcpLabel = "(Demo MCP) "

// mcpStart answers the first step of a task whose prompt starts with
// "echo", when an MCP server offers an echo tool: it calls that tool with
// the rest of the prompt. ok is false for any other prompt.
func mcpStart(req *compat.Request, prompt string) (r compat.Reply, ok bool) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(prompt), " ")
	tool := echoTool(req)
	if !strings.EqualFold(strings.Trim(verb, ",:"), "echo") || tool == "" || strings.TrimSpace(rest) == "" {
		return r, false
	}
	return withCall(req, mcpLabel+"I'll ask the MCP tool "+tool+" to echo that.", tool,
		map[string]any{"message": strings.TrimSpace(rest)}), true
}

// mcpDone reports what the MCP tool answered and finishes.
func mcpDone(req *compat.Request, tool, result string) compat.Reply {
	return withCall(req, mcpLabel+tool+" answered: "+result, ToolTaskComplete,
		map[string]any{"summary": "Called " + tool + " (an MCP tool) and showed its answer."})
}

// echoTool is the first MCP echo tool the request offers, or "".
func echoTool(req *compat.Request) string {
	for _, t := range req.Tools {
		if t.Function != nil && strings.HasSuffix(t.Function.Name, mcpEchoSuffix) {
			return t.Function.Name
		}
	}
	return ""
}
