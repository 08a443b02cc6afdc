package agent

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Prices that make the calls easy to tell apart: a token of prompt costs
// a thousandth of a dollar, an answer's tokens nothing.
var paidPrices = map[string]chat.Price{"test-model": {InputPerMTok: 1000}}

// summaryUsage is what each scripted summary call reports: $1 at paidPrices.
var summaryUsage = chat.Usage{PromptTokens: 1000, CompletionTokens: 50, TotalTokens: 1050}

// stepUsage is what each scripted step reports: a tenth of a cent.
var stepUsage = chat.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}

// A 4,096-token model compacts its history as a long task goes on: the
// summaries' tokens and cost are the task's, and the spend limit counts
// them. The steps alone cost far less than the limit; the first summary
// passes it, and the task pauses at its next step.
func TestCompactionIsPaidByTheTaskAndCountsTowardTheSpendLimit(t *testing.T) {
	t.Parallel()
	var summaries, steps atomic.Int32
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			summaries.Add(1)
			return compat.Reply{Text: "Summary: files were read one by one.", Usage: summaryUsage}
		}
		n := steps.Add(1)
		args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("f%d.txt", n%7)})
		return compat.Reply{Text: fmt.Sprintf("Reading file %d.", n), ToolCalls: []chat.ToolCall{call("read_file", string(args))}, Usage: stepUsage}
	}, harnessOpts{contextLength: 4096})
	h.settings(func(st *chat.Settings) {
		st.ContextLengths = map[string]int{"test-model": 4096}
		st.Prices = paidPrices
		st.Limits = chat.Limits{MaxSteps: 10000, MaxMinutes: 600, MaxCostUSD: 0.5}
	})
	task := startLongTask(t, h)
	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseCost, paused.PauseReason, "the summaries reached the spend limit")
	n := int64(summaries.Load())
	require.Positive(t, n, "the history outgrew the window")
	s := int64(steps.Load())
	assert.Equal(t, n*summaryUsage.PromptTokens+s*stepUsage.PromptTokens, paused.Usage.PromptTokens, "the task's usage holds every summary")
	assert.InDelta(t, float64(n)+float64(s)*0.001, paused.CostUSD, 1e-9, "and its cost")
	_, err := h.runner.Stop(t.Context(), task.ID)
	require.NoError(t, err)
	h.events.waitEnded(task.ID)
}

// startLongTask is runLongTask without waiting for the end.
func startLongTask(t *testing.T, h *harness) chat.Task {
	conv := h.conversation()
	writeBigFiles(t, h.workspace(conv), bigFiles)
	return h.start(conv, longTask)
}

// Auto mode's classification call is paid by the task it starts.
func TestTheClassificationCallIsPaidByTheTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "chat", Usage: chat.Usage{PromptTokens: 40, CompletionTokens: 1, TotalTokens: 41}},
		compat.Reply{Text: "Lisbon on a budget: walk, eat at tascas.", Usage: chat.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}},
	), harnessOpts{})
	h.settings(func(s *chat.Settings) {
		s.AutoAskModel = true
		s.Prices = paidPrices
	})
	conv := h.autoConversation()
	task := h.send(conv, "Plan a weekend trip to Lisbon for two, on a budget")
	require.Equal(t, "asked the model", task.Decision.Reason)
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, chat.Usage{PromptTokens: 50, CompletionTokens: 6, TotalTokens: 56}, done.Usage)
	assert.InDelta(t, 0.05, done.CostUSD, 1e-9)
	view, err := h.store.LoadConversation(t.Context(), conv)
	require.NoError(t, err)
	assert.InDelta(t, 0.05, view.CostUSD, 1e-9, "the conversation's total too")
}

// "Compact now" runs outside any task: the conversation pays for it.
func TestCompactNowIsPaidByTheConversation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: greetings.", Usage: summaryUsage}
		}
		return compat.Reply{Text: "hello", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)}, Usage: stepUsage}
	}, harnessOpts{})
	h.settings(func(s *chat.Settings) { s.Prices = paidPrices })
	conv := h.conversation()
	for _, text := range []string{"Say hello", "Say hello again", "Once more"} {
		require.Equal(t, chat.StatusCompleted, h.events.waitEnded(h.start(conv, text).ID).Status)
	}
	_, err := h.runner.CompactNow(t.Context(), conv)
	require.NoError(t, err)
	view, err := h.store.LoadConversation(t.Context(), conv)
	require.NoError(t, err)
	assert.Equal(t, summaryUsage.PromptTokens+3*stepUsage.PromptTokens, view.Usage.PromptTokens)
	assert.InDelta(t, 1.003, view.CostUSD, 1e-9)
}

// An OpenAI-compatible server's cache reads (prompt_tokens_details.
// cached_tokens) are the task's, and priced as cache reads: a step of
// 1,000 prompt tokens, 800 of them from the cache, costs 280 tokens' price.
func TestAnOpenAICompatibleServersCacheReadsArePricedAsSuch(t *testing.T) {
	t.Parallel()
	cached := chat.Usage{PromptTokens: 1000, CompletionTokens: 10, TotalTokens: 1010, CacheReadTokens: 800}
	h := newHarness(t, func(*compat.Request) compat.Reply {
		r := complete("done")
		r.Usage = cached
		return r
	}, harnessOpts{})
	h.settings(func(st *chat.Settings) { st.Prices = paidPrices })
	task := h.start(h.conversation(), "Do it")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, int64(800), done.Usage.CacheReadTokens)
	assert.Equal(t, int64(1000), done.Usage.PromptTokens)
	assert.InDelta(t, (200+800*chat.CacheReadPriceFactor)/1000, done.CostUSD, 1e-9)
	// The step's message keeps them too.
	var reply *chat.Usage
	for _, m := range h.messages(task.ConversationID) {
		if m.Role == chat.RoleAssistant && m.Usage != nil {
			reply = m.Usage
		}
	}
	require.NotNil(t, reply)
	assert.Equal(t, cached, *reply)
}
