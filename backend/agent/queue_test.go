package agent

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countText counts the request's messages whose text is exactly text.
func countText(req compat.Request, text string) int {
	n := 0
	for _, m := range req.Messages {
		if m.Text() == text {
			n++
		}
	}
	return n
}

// queuedScript answers with next and, while it answers request at, has
// queue run: the person adds messages while the task's step is under way.
func queuedScript(at int, queue func(), next func(*compat.Request) compat.Reply) func(*compat.Request) compat.Reply {
	var mu sync.Mutex
	n := 0
	return func(req *compat.Request) compat.Reply {
		mu.Lock()
		n++
		mine := n == at
		mu.Unlock()
		if mine {
			queue()
		}
		return next(req)
	}
}

func TestQueuedMessagesReachTheNextStepOnceAndInOrder(t *testing.T) {
	t.Parallel()
	var h *harness
	var conv string
	h = newHarness(t, queuedScript(1, func() {
		for _, text := range []string{"Also add a title", "And a date"} {
			m, err := h.runner.Queue(context.Background(), conv, text)
			require.NoError(t, err)
			assert.Equal(t, chat.DeliveryQueued, m.Delivery)
		}
	}, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{}`)}},
		complete("done"),
	)), harnessOpts{})
	conv = h.conversation()
	task := h.start(conv, "Write notes")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, 0, countText(reqs[0], "Also add a title"), "not sent while queued")
	last := lastMessages(reqs[1], 3)
	assert.Equal(t, "tool", strings.SplitN(last[0], ":", 2)[0], "after the step's tool result")
	assert.Equal(t, []string{"user: Also add a title", "user: And a date"}, last[1:])
	assert.Equal(t, 1, countText(reqs[1], "Also add a title"))

	msgs := h.messages(conv)
	var users []string
	for _, m := range msgs {
		if m.Role == chat.RoleUser {
			users = append(users, m.Content)
			assert.Empty(t, m.Delivery, "delivered: no longer marked queued")
		}
	}
	assert.Equal(t, []string{"Write notes", "Also add a title", "And a date"}, users)
}

func TestAMessageQueuedAsTheTaskFinishesKeepsItGoing(t *testing.T) {
	t.Parallel()
	var h *harness
	var conv string
	h = newHarness(t, queuedScript(1, func() {
		_, err := h.runner.Queue(context.Background(), conv, "One more thing")
		require.NoError(t, err)
	}, script(t, complete("first done"), complete("second done"))), harnessOpts{})
	conv = h.conversation()
	task := h.start(conv, "Do it")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "second done", done.Summary)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: One more thing"}, lastMessages(reqs[1], 1))
}

func TestAQueuedMessageSurvivesARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "x"), complete("written")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write")
	h.events.waitStatus(task.ID, chat.StatusWaitingApproval)
	_, err := h.runner.Queue(context.Background(), conv, "Then stop")
	require.NoError(t, err)

	_, waiting := h.restart()
	assert.Equal(t, 1, waiting)
	after := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	for _, m := range h.messages(conv) {
		if m.Content == "Then stop" {
			assert.Equal(t, chat.DeliveryQueued, m.Delivery, "still queued after the restart")
		}
	}
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, after.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "user: Then stop", lastMessages(reqs[1], 1)[0])
	assert.Equal(t, 1, countText(reqs[1], "Then stop"))
}

func TestQueuedMessagesOfAStoppedTaskStayAsNotDelivered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "x"), complete("next task")), harnessOpts{})
	conv, _ := h.undelivered("Use b.txt instead")

	msgs := h.messages(conv)
	last := msgs[len(msgs)-1]
	assert.Equal(t, "Use b.txt instead", last.Content, "kept, after the task's end")
	assert.Equal(t, chat.DeliveryNotDelivered, last.Delivery)

	// The next task's model sees it as part of the conversation.
	next := h.start(conv, "Go on")
	h.events.waitStatus(next.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: Use b.txt instead", "user: Go on"}, lastMessages(reqs[1], 2))
}

// A message its task ended before reading, sent now: a task answers it
// at once, as if it had just been sent, and it is no longer "not
// delivered"; only the last of the person's messages can be.
func TestSendNowOnANotDeliveredMessageStartsATaskThatAnswersIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "x"), complete("used b.txt")), harnessOpts{})
	ctx := context.Background()
	conv, m := h.undelivered("Use b.txt instead")

	require.NoError(t, h.runner.SendNow(ctx, conv, m.ID))
	var answer chat.Task
	h.events.wait("a task answering the message", func() bool {
		for _, t := range h.events.last {
			if t.OriginalPrompt == "Use b.txt instead" && t.Status == chat.StatusCompleted {
				answer = t
				return true
			}
		}
		return false
	})
	assert.Equal(t, "used b.txt", answer.Summary)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: Use b.txt instead"}, lastMessages(reqs[1], 1))
	assert.Equal(t, 1, countText(reqs[1], "Use b.txt instead"), "sent once, not copied")
	stored, err := h.runner.opts.Store.GetMessage(ctx, conv, m.ID)
	require.NoError(t, err)
	assert.Empty(t, stored.Delivery, "delivered")
	err = h.runner.SendNow(ctx, conv, m.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "a delivered message is not sent again")
}

func TestSendNowRefusesANotDeliveredMessageALaterOneFollowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "x"), complete("done")), harnessOpts{})
	ctx := context.Background()
	conv, m := h.undelivered("Use b.txt instead")
	next := h.start(conv, "Go on")
	h.events.waitStatus(next.ID, chat.StatusCompleted)

	err := h.runner.SendNow(ctx, conv, m.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "a later message of yours already went to the agent")
	stored, err := h.runner.opts.Store.GetMessage(ctx, conv, m.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.DeliveryNotDelivered, stored.Delivery, "nothing changed")
	assert.Len(t, h.server.Requests(), 2, "no task started")
}

// undelivered starts a task that waits for an approval, queues text and
// stops the task: the message stays, not delivered. The script's first
// reply must ask for an approval (a write).
func (h *harness) undelivered(text string) (string, chat.Message) {
	h.t.Helper()
	conv := h.conversation()
	task := h.start(conv, "Write")
	h.events.waitStatus(task.ID, chat.StatusWaitingApproval)
	m, err := h.runner.Queue(context.Background(), conv, text)
	require.NoError(h.t, err)
	_, err = h.runner.Stop(context.Background(), task.ID)
	require.NoError(h.t, err)
	return conv, m
}

func TestQueueRefusesBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which?"}`)}}), harnessOpts{})
	conv := h.conversation()
	ctx := context.Background()

	_, err := h.runner.Queue(ctx, conv, "Hello")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "no task works here")
	assert.Contains(t, chat.ErrorMessage(err), "no task is working")

	task := h.start(conv, "Ask me")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	_, err = h.runner.Queue(ctx, conv, "   ")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = h.runner.Queue(ctx, conv, strings.Repeat("x", chat.MaxMessageBytes+1))
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = h.runner.Queue(ctx, conv, "An answer")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "waiting for your answer")
	for _, m := range h.messages(conv) {
		assert.Empty(t, m.Delivery, "nothing refused was stored")
	}
}

func TestTheDemoModelTakesAQueuedMessage(t *testing.T) {
	t.Parallel()
	var h *harness
	var conv string
	h = newHarness(t, queuedScript(1, func() {
		_, err := h.runner.Queue(context.Background(), conv, "Also pack light")
		require.NoError(t, err)
	}, demoScript), harnessOpts{thinking: true})
	conv = h.conversation()
	task := h.start(conv, "Plan a trip")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	require.NoError(t, h.runner.Respond(context.Background(), task.ID, "A short summary"))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Contains(t, done.Summary, "Also pack light", "the demo model answered the queued message")
}

// A message queued while a tool call waits for approval, sent now: the
// call is denied (the model is told the person wrote instead) and the
// model reads the message next.
func TestSendNowDuringAnApprovalDeniesTheCallAndDeliversTheMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), complete("wrote nothing")), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Write a file")
	h.events.waitStatus(task.ID, chat.StatusWaitingApproval)

	m, err := h.runner.Queue(ctx, conv, "Do not write it, just tell me")
	require.NoError(t, err, "a message can be queued while the approval card waits")
	assert.Equal(t, chat.DeliveryQueued, m.Delivery)
	require.NoError(t, h.runner.SendNow(ctx, conv, m.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "a.txt"), "the call was denied")
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	last := lastMessages(reqs[1], 2)
	assert.Contains(t, last[0], "instead of deciding on this call")
	assert.Equal(t, "user: Do not write it, just tell me", last[1])
	err = h.runner.SendNow(ctx, conv, m.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "a delivered message is not sent again")
}

// A message queued while the task is paused at a limit, sent now: the
// task goes on, as with Continue, and the model reads the message.
func TestSendNowOnAPausedTaskGoesOnWithTheMessage(t *testing.T) {
	t.Parallel()
	costly := compat.Reply{Usage: chat.Usage{PromptTokens: 1_500_000, TotalTokens: 1_500_000},
		ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"spent"}`)}}
	h := newHarness(t, script(t, costly, complete("wrapped up")), harnessOpts{})
	h.settings(func(s *chat.Settings) {
		s.Prices["test-model"] = chat.Price{InputPerMTok: 1}
		s.Limits.MaxCostUSD = 1
	})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Spend")
	h.events.waitStatus(task.ID, chat.StatusPaused)

	m, err := h.runner.Queue(ctx, conv, "Wrap up now")
	require.NoError(t, err, "a message can be queued while the task is paused")
	require.NoError(t, h.runner.SendNow(ctx, conv, m.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user: Wrap up now"}, lastMessages(reqs[1], 1))
}
