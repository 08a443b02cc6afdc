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

// These tests force the moment a double click used to slip through: the
// loop has taken the person's first decision and not yet acted on it. At
// that moment a second decision for the same wait must be refused, and it
// must never answer the wait that comes next.

// onFirstDecision runs fn in the task's loop right after it took its first
// decision, before it acts on it.
func onFirstDecision(h *harness, fn func(taskID string)) {
	var once sync.Once
	h.runner.afterDecision = func(taskID string) { once.Do(func() { fn(taskID) }) }
}

// concurrently runs fn twice at once and returns both errors.
func concurrently(fn func() error) []error {
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = fn() }()
	}
	wg.Wait()
	return errs
}

func requireAlreadyAnswered(t *testing.T, errs ...error) {
	t.Helper()
	for _, err := range errs {
		require.Error(t, err)
		assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
		assert.Contains(t, chat.ErrorMessage(err), "already answered")
	}
}

func TestASecondApprovalOfADecidedCallNeverApprovesTheNextCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), writeFile("b.txt", "b"), complete("both")), harnessOpts{})
	ctx := context.Background()
	var first *chat.Approval
	onFirstDecision(h, func(taskID string) {
		requireAlreadyAnswered(t, concurrently(func() error { return h.runner.Approve(ctx, taskID, first.CallID, false) })...)
	})
	conv := h.conversation()
	task := h.start(conv, "Write two files")
	first = h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NoError(t, h.runner.Approve(ctx, task.ID, first.CallID, false))

	h.events.wait("the second write to ask for its own approval", func() bool {
		a := h.events.last[task.ID].PendingApproval
		return a != nil && a.CallID != first.CallID
	})
	assert.FileExists(t, filepath.Join(h.workspace(conv), "a.txt"))
	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "b.txt"), "the second write waits for its own approval")
	second := h.task(task.ID).PendingApproval
	require.NoError(t, h.runner.Approve(ctx, task.ID, second.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.FileExists(t, filepath.Join(h.workspace(conv), "b.txt"))
}

func TestAnApprovalBesideASettingsChangeNeverApprovesAnotherRisk(t *testing.T) {
	t.Parallel()
	runCmd := compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"echo ran > ran.txt"}`)}}
	h := newHarness(t, script(t, writeFile("a.txt", "a"), runCmd, complete("done")), harnessOpts{})
	ctx := context.Background()
	var first *chat.Approval
	onFirstDecision(h, func(taskID string) {
		// The settings approved the write; the person's click comes second.
		requireAlreadyAnswered(t, h.runner.Approve(ctx, taskID, first.CallID, true))
	})
	conv := h.conversation()
	task := h.start(conv, "Write, then run")
	first = h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	h.settings(func(s *chat.Settings) { s.AutoApprove["writes"] = true })

	h.events.wait("run_command to ask for approval", func() bool {
		a := h.events.last[task.ID].PendingApproval
		return a != nil && a.Tool == "run_command"
	})
	assert.Equal(t, "destructive", h.task(task.ID).PendingApproval.Risk)
	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "ran.txt"), "destructive is still asked for")
	_, err := h.runner.Stop(ctx, task.ID)
	require.NoError(t, err)
}

func TestASecondAnswerNeverAnswersTheNextQuestion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"First?"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Second?"}`)}},
		complete("asked twice"),
	), harnessOpts{})
	ctx := context.Background()
	onFirstDecision(h, func(taskID string) {
		requireAlreadyAnswered(t, concurrently(func() error { return h.runner.Respond(ctx, taskID, "one again") })...)
	})
	conv := h.conversation()
	task := h.start(conv, "Ask me twice")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	require.NoError(t, h.runner.Respond(ctx, task.ID, "one"))

	h.events.wait("the second question", func() bool { return h.events.last[task.ID].PendingQuestion == "Second?" })
	assert.Equal(t, chat.StatusWaitingUser, h.task(task.ID).Status, "the second question waits for its own answer")
	require.NoError(t, h.runner.Respond(ctx, task.ID, "two"))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "tool: one", lastMessages(reqs[1], 1)[0])
	assert.Equal(t, "tool: two", lastMessages(reqs[2], 1)[0])
}

func TestASecondContinueNeverSkipsTheNextPause(t *testing.T) {
	t.Parallel()
	costly := compat.Reply{Usage: chat.Usage{PromptTokens: 1_500_000, TotalTokens: 1_500_000},
		ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"spent"}`)}}
	h := newHarness(t, script(t, costly, costly, complete("ok")), harnessOpts{})
	h.settings(func(s *chat.Settings) {
		s.Prices["test-model"] = chat.Price{InputPerMTok: 1}
		s.Limits.MaxCostUSD = 1
	})
	ctx := context.Background()
	onFirstDecision(h, func(taskID string) {
		requireAlreadyAnswered(t, concurrently(func() error { return h.runner.Continue(ctx, taskID) })...)
	})
	conv := h.conversation()
	task := h.start(conv, "Spend")
	h.events.waitStatus(task.ID, chat.StatusPaused)
	require.NoError(t, h.runner.Continue(ctx, task.ID))

	h.events.wait("the second pause", func() bool {
		t := h.events.last[task.ID]
		return t.Status == chat.StatusPaused && t.CostUSD > 2
	})
	assert.Len(t, h.server.Requests(), 2, "no model call after the second pause")
	require.NoError(t, h.runner.Continue(ctx, task.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}

func TestARepeatPauseSurvivesARestart(t *testing.T) {
	t.Parallel()
	same := compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{"path":"."}`)}}
	h := newHarness(t, script(t, same, same, same, same, same, complete("stopped looping")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Loop")
	h.events.waitStatus(task.ID, chat.StatusPaused)
	pausedBefore := countStatus(h.events.statuses(task.ID), chat.StatusPaused)

	_, waiting := h.restart()
	assert.Equal(t, 1, waiting)
	// The new loop stores the pause again once it waits on it: from then on
	// nothing can run before Continue.
	h.events.wait("the restarted loop to wait on the pause", func() bool {
		return countStatus(h.events.tasks[task.ID], chat.StatusPaused) >= pausedBefore+2
	})
	got := h.task(task.ID)
	assert.Equal(t, chat.StatusPaused, got.Status)
	assert.Equal(t, chat.PauseReason("repeat"), got.PauseReason)
	assert.Len(t, openToolCalls(h.messages(conv)), 1, "the blocked call has not run")
	assert.Len(t, h.server.Requests(), 5)

	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Empty(t, openToolCalls(h.messages(conv)))
	assert.Len(t, h.server.Requests(), 6)
}

func TestAContinueRightAfterARestartIsKept(t *testing.T) {
	t.Parallel()
	same := compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{"path":"."}`)}}
	h := newHarness(t, script(t, same, same, same, same, same, complete("stopped looping")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Loop")
	h.events.waitStatus(task.ID, chat.StatusPaused)
	h.restart()
	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Continue(context.Background(), task.ID)))
}

func countStatus(list []chat.TaskStatus, s chat.TaskStatus) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestAnOversizedAnswerIsRefusedAndTheQuestionStillWaits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which?"}`)}},
		complete("answered"),
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Ask")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	huge := strings.Repeat("x", chat.MaxMessageBytes+1)
	err := h.runner.Respond(ctx, task.ID, huge)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Less(t, len(chat.ErrorMessage(err)), 200, "the error does not repeat the input")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(h.runner.Approve(ctx, task.ID, huge, false)))
	assert.Equal(t, chat.StatusWaitingUser, h.task(task.ID).Status)
	require.NoError(t, h.runner.Respond(ctx, task.ID, "this one"))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}
