package demo

import (
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// Names of the memory tools the demo uses.
const (
	ToolRemember = "remember"
	ToolForget   = "forget"
)

// memoryLabel starts every memory reply, so nobody takes the demo's
// reading of the message for a real model's.
const memoryLabel = "(Demo memory) "

// memoryStart answers the first step of a task whose prompt starts with
// "remember" or "forget", when the request offers that tool: the call,
// read from the words by a simple rule. ok is false for any other prompt.
//
//	remember KEY: VALUE        remember KEY is VALUE
//	remember globally …        the same, for every conversation
//	remember anything else     key "note"
//	forget KEY
func memoryStart(req *compat.Request, prompt string) (r compat.Reply, ok bool) {
	words := strings.Fields(prompt)
	if len(words) < 2 {
		return r, false
	}
	verb := strings.ToLower(strings.Trim(words[0], ",:"))
	rest := strings.Join(words[1:], " ")
	switch {
	case verb == "remember" && req.HasTool(ToolRemember):
		scope := "conversation"
		if low := strings.ToLower(rest); strings.HasPrefix(low, "globally ") {
			scope, rest = "global", rest[len("globally "):]
		}
		rest = strings.TrimPrefix(rest, "that ")
		key, value := splitFact(rest)
		return withCall(req, memoryLabel+"I'll remember "+key+".", ToolRemember,
			map[string]any{"key": key, "value": value, "scope": scope}), true
	case verb == "forget" && req.HasTool(ToolForget):
		key := strings.TrimRight(rest, ".!")
		return withCall(req, memoryLabel+"I'll forget "+key+".", ToolForget, map[string]any{"key": key}), true
	}
	return r, false
}

// splitFact reads "KEY: VALUE" or "KEY is VALUE"; anything else is a note.
func splitFact(s string) (key, value string) {
	s = strings.TrimRight(strings.TrimSpace(s), ".!")
	for _, sep := range []string{": ", " is ", " = "} {
		if k, v, found := strings.Cut(s, sep); found && strings.TrimSpace(k) != "" && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(k), strings.TrimSpace(v)
		}
	}
	return "note", s
}

// memoryDone ends a task after its remember or forget call: what the tool
// said, then task_complete.
func memoryDone(req *compat.Request, tool, result string) compat.Reply {
	return withCall(req, memoryLabel+result, ToolTaskComplete, map[string]any{
		"summary": "Demo " + tool + ": " + echo(result),
	})
}
