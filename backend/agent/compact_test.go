package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// instructionsCost counts what a request spends before any message of the
// conversation: its system message (with the memory section) and its
// tools, with the tokenizer Errand plans with.
func instructionsCost(req compat.Request) int {
	req.Messages = req.Messages[:1]
	return compat.CountPrompt(&req)
}

// A model of 8k context or less gets Errand's instructions and tools in
// at most 1,000 tokens — the same tools, the same rules, said shortly; a
// larger model gets them in full.
func TestSmallModelsGetTheInstructionsAndToolsInAThousandTokens(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(*compat.Request) compat.Reply { return complete("done") }, harnessOpts{})
	conv := h.conversation()
	for _, length := range []int{2048, 8192, 32768} {
		h.settings(func(s *chat.Settings) { s.ContextLengths = map[string]int{"test-model": length} })
		require.Equal(t, chat.StatusCompleted, h.events.waitEnded(h.start(conv, "Go").ID).Status)
	}
	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	small, full := reqs[0], reqs[2]
	require.True(t, h.runner.memoryOn(h.runner.settings(t.Context())), "memory is on: its section is counted too")

	assert.LessOrEqual(t, instructionsCost(small), 1000, "a 2k model's instructions and tools")
	assert.LessOrEqual(t, instructionsCost(reqs[1]), 1000, "an 8k model's")
	assert.Greater(t, instructionsCost(full), 1500, "a larger model gets the full form")
	assert.ElementsMatch(t, toolNames(full), toolNames(small), "the same tools")
	assert.Contains(t, small.Messages[0].Text(), "task_complete")
	assert.Contains(t, small.Messages[0].Text(), "ask_user")
	assert.Contains(t, small.Messages[0].Text(), "update_plan")
	assert.Contains(t, full.Messages[0].Text(), AgenticRules)
	t.Logf("instructions and tools: %d tokens compact, %d in full", instructionsCost(small), instructionsCost(full))
}

// A 2,048-token model runs a simple task of several steps — plan, write a
// file, read it back, finish — to the end, every request within its window.
func TestA2048TokenModelRunsASimpleTask(t *testing.T) {
	t.Parallel()
	var step atomic.Int32
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: the person asked for notes.txt; it was planned and written."}
		}
		plan, _ := json.Marshal(compat.PlanArgs([]string{"Write notes.txt", "Check it"}, 0, "notes.txt holds the text"))
		switch step.Add(1) {
		case 1:
			return compat.Reply{Text: "Planning.", ToolCalls: []chat.ToolCall{call(ToolUpdatePlan, string(plan))}}
		case 2:
			return writeFile("notes.txt", "milk, eggs")
		case 3:
			return compat.Reply{ToolCalls: []chat.ToolCall{call("read_file", `{"path":"notes.txt"}`)}}
		case 4:
			done, _ := json.Marshal(compat.PlanArgs([]string{"Write notes.txt", "Check it"}, 2, "notes.txt holds the text"))
			return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolUpdatePlan, string(done))}}
		case 5:
			return complete("notes.txt holds milk, eggs")
		default:
			return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolReflect, `{"goal_achieved":true,"issues":[]}`)}}
		}
	}, harnessOpts{contextLength: 2048})
	h.settings(func(s *chat.Settings) {
		s.ContextLengths = map[string]int{"test-model": 2048}
		s.AutoApprove["writes"] = true
	})
	conv := h.conversation()
	done := h.events.waitEnded(h.start(conv, "Write milk, eggs into notes.txt and check it").ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, "notes.txt holds milk, eggs", done.Summary)
	body, err := os.ReadFile(filepath.Join(h.workspace(conv), "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "milk, eggs", string(body))
	assert.Equal(t, 2048, done.ContextLimit)
	for _, req := range h.server.Requests() {
		assert.LessOrEqual(t, compat.CountPrompt(&req), 2048-512, "every request leaves the reply its reserve")
	}
}

// On a 4,096-token model a long task of ordinary steps (files of a few
// hundred bytes to a kilobyte and a half read one after another) compacts
// its history now and then, not on nearly every step: the compact
// instructions leave room for several steps between two summaries.
func TestA4096TokenModelCompactsOnlyEveryFewSteps(t *testing.T) {
	t.Parallel()
	const turns = 60
	s := &longScript{t: t, turns: turns}
	h := newHarness(t, s.reply, harnessOpts{contextLength: 4096})
	h.settings(func(st *chat.Settings) {
		st.ContextLengths = map[string]int{"test-model": 4096}
		st.Limits = chat.Limits{MaxSteps: 10000, MaxMinutes: 600, MaxCostUSD: 10000}
	})
	done := runLongTask(t, h, []int{300, 800, 1500, 200, 1000, 600, 1200})
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	notices := 0
	for _, m := range h.messages(done.ConversationID) {
		if m.SummaryID != "" {
			notices++
		}
	}
	require.Positive(t, notices, "the history outgrew the window")
	t.Logf("%d steps, %d compactions", turns, notices)
	assert.LessOrEqual(t, notices*4, turns, fmt.Sprintf("at most one compaction every four steps (%d in %d)", notices, turns))
	assert.Empty(t, s.lostTask, "every request still holds the task")
	assert.NotContains(t, h.server.Requests()[0].Messages[0].Text(), AgenticRules, "the compact instructions")
}
