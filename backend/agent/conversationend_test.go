package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func (h *harness) conv(id string) chat.Conversation {
	h.t.Helper()
	c, err := h.store.GetConversation(context.Background(), id)
	require.NoError(h.t, err)
	return c
}

// convReaches waits for the conversation to reach state: a proactive
// agent's conversation is completed just after its task's end is
// published, not before.
func (h *harness) convReaches(id string, state chat.ConversationState) {
	h.t.Helper()
	h.events.wait(fmt.Sprintf("conversation %s to be %s", id, state), func() bool { return h.conv(id).State == state })
}

func TestEndConversationRecordsTheAgentsReasonAcrossARestart(t *testing.T) {
	t.Parallel()
	long := `{"reason":"` + strings.Repeat("x", chat.MaxEndReasonBytes+1) + `"}`
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolEndConversation, long)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolEndConversation, `{"reason":"The person asked to stop."}`)}},
	), harnessOpts{})
	conv := h.conversation()
	h.useAgent(conv, proactive)

	task, err := h.runner.StartProactive(context.Background(), conv)
	require.NoError(t, err)
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, "Ended the conversation: The person asked to stop.", done.Summary)

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, toolNames(reqs[0]), ToolEndConversation, "offered: the agent allows an early end")
	assert.Contains(t, lastMessages(reqs[1], 1)[0], "1 KB", "a reason over 1 KB goes back to the model")

	_, waiting := h.restart()
	assert.Zero(t, waiting)
	c := h.conv(conv)
	assert.Equal(t, chat.StateEnded, c.State)
	assert.Equal(t, chat.EndedByAgent, c.EndedBy)
	assert.Equal(t, "The person asked to stop.", c.EndReason)
}

// A message the person queues while the agent ends the conversation keeps
// the task going: the model reads it, and the conversation is not ended.
func TestAMessageQueuedAsTheAgentEndsTheConversationKeepsItGoing(t *testing.T) {
	t.Parallel()
	var h *harness
	var conv string
	h = newHarness(t, queuedScript(1, func() {
		_, err := h.runner.Queue(context.Background(), conv, "Wait, one more question")
		require.NoError(t, err)
	}, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolEndConversation, `{"reason":"The person asked to stop."}`)}},
		complete("answered"),
	)), harnessOpts{})
	conv = h.conversation()
	h.useAgent(conv, proactive)
	task, err := h.runner.StartProactive(context.Background(), conv)
	require.NoError(t, err)
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, "answered", done.Summary)

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: Wait, one more question"}, lastMessages(reqs[1], 1))
	h.convReaches(conv, chat.StateCompleted)
	c := h.conv(conv)
	assert.Empty(t, c.EndedBy, "the agent's end was withdrawn")
	assert.Empty(t, c.EndReason)
}

func TestEndConversationIsNotOfferedToAnAgentThatDoesNotAllowIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolEndConversation, `{"reason":"bored"}`)}},
		complete("done"),
	), harnessOpts{})
	conv := h.conversation()
	done := h.events.waitEnded(h.start(conv, "Hello").ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.NotContains(t, toolNames(reqs[0]), ToolEndConversation)
	assert.Contains(t, lastMessages(reqs[1], 1)[0], `unknown tool "end_conversation"`)
	assert.Equal(t, chat.StateActive, h.conv(conv).State, "Errand's conversation goes on")
}

func TestAProactiveAgentsFinishedTaskCompletesItsConversation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("met"), complete("again")), harnessOpts{})
	conv := h.conversation()
	h.useAgent(conv, proactive)
	task, err := h.runner.StartProactive(context.Background(), conv)
	require.NoError(t, err)
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	h.convReaches(conv, chat.StateCompleted)

	next := h.start(conv, "One more thing")
	assert.Equal(t, chat.StateActive, h.conv(conv).State, "a new task reopens it")
	h.events.waitEnded(next.ID)
}
