package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatTurns stores n finished chat turns, each a question and a long
// answer, in the conversation, and returns the last answer.
func chatTurns(t *testing.T, h *harness, conv string, n int) chat.Message {
	t.Helper()
	ctx := context.Background()
	var last chat.Message
	for i := range n {
		now := time.Now().UTC()
		task := chat.Task{ID: uuid.NewString(), ConversationID: conv, Mode: chat.ModeChat, Status: chat.StatusRunning,
			OriginalPrompt: fmt.Sprintf("Question %d", i), StartedAt: now, Rev: 1}
		_, err := h.store.StartTask(ctx, task, chat.Message{ID: uuid.NewString(), ConversationID: conv, TaskID: task.ID,
			Role: chat.RoleUser, Content: task.OriginalPrompt, CreatedAt: now})
		require.NoError(t, err)
		last, err = h.store.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: conv, TaskID: task.ID,
			Role: chat.RoleAssistant, Content: strings.Repeat(fmt.Sprintf("Answer %d goes on and on. ", i), 60), CreatedAt: now})
		require.NoError(t, err)
		task.Status, task.Rev = chat.StatusCompleted, 2
		_, err = h.store.FinishTask(ctx, task, nil)
		require.NoError(t, err)
	}
	return last
}

// A count outside 1 to 5 is refused, naming its field, and changes nothing.
func TestAVariationCountOutsideOneToFiveIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t), harnessOpts{})
	conv := h.conversation()
	reply := chatTurns(t, h, conv, 1)
	for _, n := range []int{0, -1, 6} {
		_, err := h.runner.Variations(t.Context(), conv, reply.ID, VariationsRequest{Count: n}, nil)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "count %d", n)
		assert.Equal(t, "count", chat.ErrorField(err))
		assert.Contains(t, chat.ErrorMessage(err), "between 1 and 5")
	}
	_, err := h.runner.Variations(t.Context(), conv, reply.ID, VariationsRequest{Count: 1, Models: []string{"a", "b"}}, nil)
	assert.Equal(t, "models", chat.ErrorField(err))
	assert.Empty(t, h.server.Requests(), "no model was asked")
	require.NoError(t, h.store.SwitchBranch(t.Context(), conv, reply.ID))
	assert.Zero(t, h.messages(conv)[1].Versions, "no version was stored")
}

// On a 4,096-token model a long conversation's variations are built like
// a normal reply: the agent's instructions, the older turns summarised
// (each summary paid for by its variation, none stored), every request
// within the model's context; five of them, each with its usage and cost,
// which the conversation's totals add up.
func TestVariationsAreBuiltLikeARealReplyWithinTheBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: many questions were answered at length.", Usage: summaryUsage}
		}
		return compat.Reply{Text: "A fresh take.", Usage: stepUsage}
	}, harnessOpts{contextLength: 4096})
	h.settings(func(st *chat.Settings) {
		st.ContextLengths = map[string]int{"test-model": 4096}
		st.Prices = paidPrices
	})
	conv := h.conversation()
	h.useAgent(conv, reader)
	reply := chatTurns(t, h, conv, 20)

	vs, err := h.runner.Variations(t.Context(), conv, reply.ID, VariationsRequest{Count: 5}, nil)
	require.NoError(t, err)
	require.Len(t, vs, 5)
	var total float64
	for _, v := range vs {
		require.NotNil(t, v.Message, v.Error)
		assert.Equal(t, "A fresh take.", v.Text)
		assert.Equal(t, "test-model", v.Model)
		assert.Greater(t, v.Usage.PromptTokens, summaryUsage.PromptTokens, "its summary and its reply")
		assert.Greater(t, v.CostUSD, 1.0)
		total += v.CostUSD
	}
	variationReqs := 0
	for _, req := range h.server.Requests() {
		system := req.Messages[0].Text()
		if req.AsksForSummary() {
			continue
		}
		variationReqs++
		assert.Contains(t, system, reader.Instructions, "the agent's instructions")
		assert.Contains(t, system, "many questions were answered", "the older turns summarised")
		assert.Empty(t, req.Tools)
	}
	assert.Equal(t, 5, variationReqs)
	_, ok, err := h.store.LatestSummary(t.Context(), conv)
	require.NoError(t, err)
	assert.False(t, ok, "a variation's summary is not stored")
	view, err := h.store.LoadConversation(t.Context(), conv)
	require.NoError(t, err)
	assert.InDelta(t, total, view.CostUSD, 1e-9, "the conversation pays for the variations")
}

// Stopped midway, the variations keep what they had written, as versions,
// with the tokens it took (counted by Errand, the server never said).
func TestStoppedVariationsKeepWhatTheyWroteWithTheirUsage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		return compat.Reply{Text: "Half of an answer", HangAfterText: true}
	}, harnessOpts{})
	conv := h.conversation()
	reply := chatTurns(t, h, conv, 2)
	writing := make(chan int, 10)
	seen := map[int]bool{}
	progress := func(v Variation) {
		if !v.Done && strings.HasPrefix(v.Text, "Half") {
			writing <- v.Index
		}
	}
	type result struct {
		vs  []Variation
		err error
	}
	out := make(chan result, 1)
	go func() {
		vs, err := h.runner.Variations(context.Background(), conv, reply.ID, VariationsRequest{Count: 2}, progress)
		out <- result{vs, err}
	}()
	for len(seen) < 2 {
		seen[<-writing] = true
	}
	require.True(t, h.runner.StopVariations(conv))
	res := <-out
	require.NoError(t, res.err)
	for _, v := range res.vs {
		assert.True(t, v.Stopped)
		assert.Empty(t, v.Error)
		assert.True(t, strings.HasPrefix(v.Text, "Half"), v.Text)
		require.NotNil(t, v.Message, "what was written is kept")
		assert.Equal(t, v.Text, v.Message.Content)
		assert.Positive(t, v.Usage.PromptTokens)
		assert.Positive(t, v.Usage.CompletionTokens)
	}
	assert.False(t, h.runner.StopVariations(conv), "nothing left to stop")
	view, err := h.store.LoadConversation(t.Context(), conv)
	require.NoError(t, err)
	assert.Equal(t, res.vs[0].Usage.TotalTokens+res.vs[1].Usage.TotalTokens, view.Usage.TotalTokens)
}

// Regenerate works on any reply, not only the last: the task that wrote it
// runs again on a new branch from its prompt, and what followed stays on
// the old one.
func TestRegenerateAnEarlierReply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{Text: "One"}, compat.Reply{Text: "Two"}, compat.Reply{Text: "One again"}), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	for _, text := range []string{"First", "Second"} {
		task, err := h.runner.StartTask(ctx, conv, text, chat.ModeChat)
		require.NoError(t, err)
		h.events.waitStatus(task.ID, chat.StatusCompleted)
	}
	first := h.messages(conv)[1]
	task, err := h.runner.Regenerate(ctx, conv, first.ID, "")
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, []string{"First", "One again"}, texts(h.messages(conv)))
	reqs := h.server.Requests()
	assert.Equal(t, []string{"user: First"}, requestTexts(reqs[2]))
	_, err = h.store.ShowVersion(ctx, conv, h.messages(conv)[1].ID, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"First", "One", "Second", "Two"}, texts(h.messages(conv)), "the old branch keeps what followed")
	_, err = h.runner.Regenerate(ctx, conv, h.messages(conv)[0].ID, "")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "the person's message is not a reply")
}
