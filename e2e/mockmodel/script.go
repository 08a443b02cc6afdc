package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/compat"
)

const (
	nudgePrefix = "(automatic)"
	slowWords   = 400
	slowDelay   = 50 * time.Millisecond
)

// script answers one request; see the package documentation.
func script(req *compat.Request) compat.Reply {
	p := promptIndex(req.Messages)
	if p < 0 {
		return compat.Reply{Text: "Echo: "}
	}
	prompt := req.Messages[p].Text()
	if len(req.Tools) == 0 || strings.Contains(prompt, "[chat]") {
		return compat.Reply{Text: "Echo: " + prompt}
	}
	tail := req.Messages[p+1:]
	replied := 0 // assistant messages since the prompt
	for _, m := range tail {
		if m.Role == "assistant" {
			replied++
		}
	}
	switch {
	case strings.Contains(prompt, "[complete]"):
		if replied == 0 {
			return call("Working on it.", "send_update", map[string]any{"message": "Halfway there"})
		}
		return call("All done.", "task_complete", map[string]any{"summary": "Finished the e2e task"})
	case strings.Contains(prompt, "[ask]"):
		if answer, ok := askAnswer(tail); ok {
			return call("You chose "+answer+".", "task_complete", map[string]any{"summary": "Color chosen: " + answer})
		}
		if replied == 0 {
			return call("", "ask_user", map[string]any{"question": "Which color?", "choices": []string{"Red", "Blue"}})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[slow]"):
		words := make([]string, slowWords)
		for i := range words {
			words[i] = fmt.Sprintf("word%d", i+1)
		}
		r := call(strings.Join(words, " "), "task_complete", map[string]any{"summary": "Finished the slow task"})
		r.ChunkDelay = slowDelay
		return r
	default:
		return call("Done: "+prompt, "task_complete", map[string]any{"summary": "done"})
	}
}

// promptIndex returns the index of the task's prompt: the last user
// message that is not an automatic nudge, or failing that the last user
// message, or -1.
func promptIndex(msgs []compat.Message) int {
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		if !strings.HasPrefix(strings.TrimSpace(msgs[i].Text()), nudgePrefix) {
			return i
		}
		if last < 0 {
			last = i
		}
	}
	return last
}

// askAnswer returns the result of the last ask_user call in msgs.
func askAnswer(msgs []compat.Message) (string, bool) {
	asks := map[string]bool{}
	answer, ok := "", false
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == "ask_user" {
				asks[tc.ID] = true
			}
		}
		if m.Role == "tool" && asks[m.ToolCallID] {
			answer, ok = m.Text(), true
		}
	}
	return answer, ok
}

// call is a reply of text and one tool call.
func call(text, tool string, args map[string]any) compat.Reply {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return compat.Reply{Text: text, ToolCalls: []chat.ToolCall{{Name: tool, Arguments: string(data)}}}
}
