package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// thinkingTask is a three-step task of a thinking model: two updates and
// the completion, each step thought through first, in the given shape.
func thinkingTask(shape compat.ReasoningShape) []compat.Reply {
	steps := []compat.Reply{
		{Text: "Starting.", ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"Looking around"}`)}},
		{ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"Halfway"}`)}},
		{Text: "All done.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"Done"}`)}},
	}
	for i := range steps {
		steps[i].Reasoning = thoughtOf(i)
		steps[i].ReasoningAs = shape
	}
	return steps
}

func thoughtOf(step int) string {
	return []string{"First I should say what I am doing.", "Then report progress.", "Now it is complete."}[step]
}

func TestAThinkingModelRunsAToolTaskToCompletionInEveryShape(t *testing.T) {
	t.Parallel()
	for _, shape := range []compat.ReasoningShape{compat.ReasoningContent, compat.ReasoningField,
		compat.ThinkTags, compat.ThinkClose, compat.ThinkingParts} {
		t.Run(string(shape), func(t *testing.T) {
			t.Parallel()
			// The server wants the thinking back, as DeepSeek's does: every
			// shape's reasoning is passed back the same way.
			h := newHarness(t, script(t, thinkingTask(shape)...), harnessOpts{thinking: true})
			conv := h.conversation()
			task := h.start(conv, "Look around and report")
			h.events.waitStatus(task.ID, chat.StatusCompleted)

			var replies []chat.Message
			for _, m := range h.messages(conv) {
				if m.Role == chat.RoleAssistant {
					replies = append(replies, m)
				}
			}
			require.Len(t, replies, 3)
			for i, m := range replies {
				assert.Equal(t, thoughtOf(i), m.Reasoning, "step %d keeps its thinking apart", i)
				assert.NotContains(t, m.Content, "think>")
				assert.NotContains(t, m.Content, thoughtOf(i), "the answer holds no thinking")
				assert.Positive(t, m.ReasoningMS, "how long it thought")
			}
			assert.Equal(t, "Starting.", replies[0].Content)
			assert.Equal(t, "All done.", replies[2].Content)
		})
	}
}

func TestReasoningStreamsAsReasoningDeltas(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Weighing the options carefully. ", 40)
	h := newHarness(t, script(t,
		compat.Reply{Reasoning: long, Text: "Here it is.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Think it over")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	h.events.mu.Lock()
	var thinking, text strings.Builder
	next := -1
	for _, d := range h.events.deltas {
		if d.Reasoning {
			if next >= 0 {
				assert.Equal(t, next, d.Offset, "reasoning deltas follow each other in the reasoning")
			}
			next = d.Offset + len(d.Text)
			thinking.WriteString(d.Text)
		} else {
			text.WriteString(d.Text)
		}
	}
	h.events.mu.Unlock()
	var reply chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleAssistant {
			reply = m
		}
	}
	assert.Equal(t, long, reply.Reasoning)
	assert.Equal(t, "Here it is.", reply.Content)
	// The first delta creates the message; the rest arrive as deltas.
	assert.NotEmpty(t, thinking.String())
	assert.True(t, strings.HasSuffix(long, thinking.String()), "the streamed thinking is the end of the reply's thinking")
	assert.NotContains(t, text.String(), "Weighing", "no thinking in the text deltas")
}

func TestDeepSeekThinkingGetsItsReasoningBackAtStepTwo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, thinkingTask(compat.ReasoningContent)...), harnessOpts{thinking: true})
	conv := h.conversation()
	task := h.start(conv, "Look around and report")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	var passed []string
	for _, m := range reqs[2].Messages {
		if m.ReasoningContent != nil {
			passed = append(passed, *m.ReasoningContent)
		}
	}
	assert.Equal(t, []string{thoughtOf(0), thoughtOf(1)}, passed)
}

func TestOlderTurnsThinkingIsNotSent(t *testing.T) {
	t.Parallel()
	replies := append(thinkingTask(compat.ReasoningContent),
		compat.Reply{Reasoning: "Again.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"again"}`)}})
	h := newHarness(t, script(t, replies...), harnessOpts{thinking: true})
	conv := h.conversation()
	h.events.waitStatus(h.start(conv, "Look around").ID, chat.StatusCompleted)
	h.events.waitStatus(h.start(conv, "Once more").ID, chat.StatusCompleted)
	last := h.server.Requests()[3]
	for _, m := range last.Messages {
		assert.Nil(t, m.ReasoningContent, "a new turn sends none of the older turns' thinking")
	}
}

func TestAServerThatRejectsPassedBackReasoningStillRunsTheTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, thinkingTask(compat.ReasoningContent)...), harnessOpts{allowRejections: true})
	conv := h.conversation()
	task := h.start(conv, "Look around and report")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Len(t, h.server.Rejections(), 1, "rejected once, then not sent again")
}

func TestReasoningSurvivesAStoreReopen(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, thinkingTask(compat.ThinkTags)...), harnessOpts{thinking: true})
	conv := h.conversation()
	h.events.waitStatus(h.start(conv, "Look around").ID, chat.StatusCompleted)

	st, err := store.Open(context.Background(), h.dbPath)
	require.NoError(t, err)
	defer st.Close()
	msgs, err := st.Messages(context.Background(), conv)
	require.NoError(t, err)
	var thoughts []string
	for _, m := range msgs {
		if m.Reasoning != "" {
			thoughts = append(thoughts, m.Reasoning)
			assert.Positive(t, m.ReasoningMS)
		}
	}
	assert.Equal(t, []string{thoughtOf(0), thoughtOf(1), thoughtOf(2)}, thoughts)
}

func TestReasoningEffortFollowsTheSetting(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("one"), complete("two")), harnessOpts{})
	conv := h.conversation()
	h.events.waitStatus(h.start(conv, "First").ID, chat.StatusCompleted)
	h.settings(func(s *chat.Settings) { s.ReasoningEffort = map[string]chat.ReasoningEffort{"test-model": "high"} })
	h.events.waitStatus(h.start(conv, "Second").ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	assert.Empty(t, reqs[0].ReasoningEffort)
	assert.Equal(t, "high", reqs[1].ReasoningEffort)
}
