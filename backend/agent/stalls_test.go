package agent

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/stall"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timeouts are model timeouts a test can change between calls.
func timeouts(t stall.Timeouts) *atomic.Pointer[stall.Timeouts] {
	p := &atomic.Pointer[stall.Timeouts]{}
	p.Store(&t)
	return p
}

func TestStalledModelIsRetriedOnceThenFailsTheTaskAndRetryWorks(t *testing.T) {
	t.Parallel()
	// No race between a silence and a limit: each call's text reaches the
	// client in one read (whenever it comes, within a minute), and the
	// silence after it never ends until the call is cut. So the small idle
	// limit can only cut where the server went silent, however loaded the
	// machine. (A small first-byte limit could also cut a request the
	// loaded server had not yet read: llm/stall's tests cut the first byte.)
	limits := timeouts(stall.Timeouts{FirstByte: time.Minute, Idle: 200 * time.Millisecond})
	h := newHarness(t, script(t,
		compat.Reply{Text: "Working", HangAfterText: true}, // stalls between chunks
		compat.Reply{Text: "Working", HangAfterText: true}, // the retry stalls too
		compat.Reply{Text: "Back again.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done after all"}`)}},
	), harnessOpts{timeouts: limits, transport: compat.Gather(`"Working"`)})
	conv := h.conversation()
	task := h.start(conv, "Work")

	failed := h.events.waitStatus(task.ID, chat.StatusError)
	assert.Contains(t, failed.ErrorMessage, "The model server stopped answering: nothing came for 0.2 s")
	assert.Contains(t, failed.ErrorMessage, "raise the model timeouts in Settings")
	assert.Len(t, h.server.Requests(), 2, "the stalled call was tried once more, then given up")
	// The replies cut by the stall stay, folded, and are not sent again.
	var cut []chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleAssistant {
			cut = append(cut, m)
		}
	}
	require.Len(t, cut, 2, "the first reply and the retry's")
	for _, m := range cut {
		assert.Equal(t, "Working", m.Content)
		assert.Equal(t, chat.OutcomeCutOff, m.Outcome)
		assert.False(t, m.Streaming)
	}
	assert.Equal(t, []string{"user: Work"}, lastMessages(h.server.Requests()[1], 1))

	// Generous again, so that a loaded machine cannot cut the answer.
	limits.Store(&stall.Timeouts{FirstByte: time.Minute, Idle: time.Minute})
	_, err := h.runner.Retry(context.Background(), task.ID)
	require.NoError(t, err)
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "done after all", done.Summary)
	assert.Equal(t, []string{"user: Work"}, lastMessages(h.server.Requests()[2], 1), "the cut replies are not shown to the model")
}

func TestTimeLimitCutsAModelCallAndPauses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Half a thought", HangAfterText: true}, // never ends by itself
		compat.Reply{Text: "Whole.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{})
	// 3 s: time for the call to start on a loaded machine; then it is
	// cut only by the limit, since the reply never ends by itself.
	h.settings(func(s *chat.Settings) { s.Limits.MaxMinutes = 0.05 })
	conv := h.conversation()
	task := h.start(conv, "Think long")

	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseReason("time"), paused.PauseReason)
	assert.Contains(t, paused.PendingQuestion, "of work. Continue for 10 more minutes")
	// The server notices the cut connection on its own time, maybe after
	// the pause is published: it is waited for.
	select {
	case <-h.server.Disconnects():
	case <-time.After(time.Minute):
		t.Fatal("the server never saw the call cut")
	}
	assert.Equal(t, 1, h.server.HangUps(), "the call was cut once")
	assert.Equal(t, 0, paused.StepCount, "the cut step is run again on Continue")
	msgs := h.messages(conv)
	last := msgs[len(msgs)-1]
	assert.Equal(t, "Half a thought", last.Content, "what was written is kept")
	assert.Equal(t, chat.OutcomeCutOff, last.Outcome)

	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, 1, done.StepCount)
	require.Len(t, h.server.Requests(), 2)
	assert.Equal(t, []string{"user: Think long"}, lastMessages(h.server.Requests()[1], 1), "the half reply is not sent, nor doubled")
	var texts []string
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleAssistant {
			texts = append(texts, m.Content)
		}
	}
	assert.Equal(t, []string{"Half a thought", "Whole."}, texts)
}
