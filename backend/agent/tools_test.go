package agent

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func complete(summary string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"`+summary+`"}`)}}
}

func writeFile(path, content string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call("write_file", `{"path":"`+path+`","content":"`+content+`"}`)}}
}

func TestWriteWaitsForApprovalWithADiffAndLandsInTheWorkspace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("notes/plan.txt", "step one\\n"), complete("written")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write the plan")

	waiting := h.events.waitStatus(task.ID, chat.StatusWaitingApproval)
	a := waiting.PendingApproval
	require.NotNil(t, a)
	assert.Equal(t, "write_file", a.Tool)
	assert.Equal(t, "writes", a.Risk)
	assert.Contains(t, a.Arguments, `"path": "notes/plan.txt"`)
	assert.Contains(t, a.Preview, "+++ b/notes/plan.txt")
	assert.Contains(t, a.Preview, "+step one")
	assert.Equal(t, a, h.task(task.ID).PendingApproval, "the card is stored while it waits")
	_, err := os.Stat(filepath.Join(h.workspace(conv), "notes/plan.txt"))
	assert.True(t, os.IsNotExist(err), "nothing is written before approval")

	ctx := context.Background()
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Approve(ctx, task.ID, "some-other-call", false)))
	require.NoError(t, h.runner.Approve(ctx, task.ID, a.CallID, false))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Nil(t, done.PendingApproval)
	b, err := os.ReadFile(filepath.Join(h.workspace(conv), "notes/plan.txt"))
	require.NoError(t, err)
	assert.Equal(t, "step one\n", string(b))
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Approve(ctx, task.ID, a.CallID, false)))
}

func TestApproveForTaskCoversLaterCallsOfThatTool(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), writeFile("b.txt", "b"), complete("both")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write two files")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, a.CallID, true))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	approvals := 0
	for _, s := range compactStatuses(h.events.statuses(task.ID)) {
		if s == chat.StatusWaitingApproval {
			approvals++
		}
	}
	assert.Equal(t, 1, approvals, "the second write did not ask again")
	assert.FileExists(t, filepath.Join(h.workspace(conv), "b.txt"))
}

func TestDenyWithAReasonTellsTheModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), complete("gave up")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NoError(t, h.runner.Deny(context.Background(), task.ID, a.CallID, " not that file "))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "a.txt"))
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	last := lastMessages(reqs[1], 1)[0]
	assert.Contains(t, last, "The user denied this call.")
	assert.Contains(t, last, "Their reason: not that file")
	// The transcript says the person denied it, not that the tool failed.
	res := toolResults(h.messages(conv))
	require.Len(t, res, 2)
	assert.Equal(t, chat.OutcomeDenied, res[0].Outcome)
	assert.Empty(t, res[1].Outcome, "task_complete ran")
}

// toolResults are the RoleTool messages among msgs.
func toolResults(msgs []chat.Message) []chat.Message {
	var out []chat.Message
	for _, m := range msgs {
		if m.Role == chat.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

func TestStopWhileWaitingForApproval(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), complete("next")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	res, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	assert.True(t, res.Stopped)
	assert.Nil(t, res.Task.PendingApproval)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Approve(context.Background(), task.ID, a.CallID, false)))
	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "a.txt"))
	assert.Empty(t, openToolCalls(h.messages(conv)))
	results := toolResults(h.messages(conv))
	require.Len(t, results, 1)
	assert.Equal(t, chat.OutcomeStopped, results[0].Outcome, "a call waiting for approval when the task stopped was stopped")
	next := h.start(conv, "Again")
	h.events.waitStatus(next.ID, chat.StatusCompleted)
}

func TestAutoApprovalChangeAppliesToARunningTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "a"), complete("done")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write")
	h.events.waitStatus(task.ID, chat.StatusWaitingApproval)
	h.settings(func(s *chat.Settings) { s.AutoApprove["writes"] = true })
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.FileExists(t, filepath.Join(h.workspace(conv), "a.txt"))
}

func TestReadOnlyToolsRunWithoutAsking(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{}`)}},
		complete("listed"),
	), harnessOpts{})
	conv := h.conversation()
	require.NoError(t, os.MkdirAll(h.workspace(conv), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(h.workspace(conv), "hello.txt"), []byte("hi"), 0o644))
	task := h.start(conv, "List")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.NotContains(t, h.events.statuses(task.ID), chat.StatusWaitingApproval)
	assert.Contains(t, lastMessages(h.server.Requests()[1], 1)[0], "hello.txt (2 bytes)")
}

func TestStepLimitPausesAndContinues(t *testing.T) {
	t.Parallel()
	update := compat.Reply{ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"still going"}`)}}
	h := newHarness(t, script(t, update, compat.Reply{Text: "more", ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"again"}`)}}, complete("finished")), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.Limits.MaxSteps = 2 })
	conv := h.conversation()
	task := h.start(conv, "Work")
	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseReason("steps"), paused.PauseReason)
	assert.Equal(t, 2, paused.StepCount)
	assert.Contains(t, paused.PendingQuestion, "Limit reached: 2 steps. Continue for 25 more steps")
	assert.Len(t, h.server.Requests(), 2, "no model call while paused")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Respond(context.Background(), task.ID, "yes")))

	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, 27, done.Limits.MaxSteps)
	assert.Equal(t, 3, done.StepCount)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Continue(context.Background(), task.ID)))
}

func TestSpendLimitPausesWithTheCost(t *testing.T) {
	t.Parallel()
	costly := compat.Reply{Text: "thinking hard", Usage: chat.Usage{PromptTokens: 100_000, CompletionTokens: 10_000, TotalTokens: 110_000},
		ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"spent"}`)}}
	h := newHarness(t, script(t, costly, complete("ok")), harnessOpts{})
	h.settings(func(s *chat.Settings) {
		s.Prices["test-model"] = chat.Price{InputPerMTok: 10, OutputPerMTok: 30}
		s.Limits.MaxCostUSD = 1
	})
	conv := h.conversation()
	task := h.start(conv, "Spend")
	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseReason("cost"), paused.PauseReason)
	assert.InDelta(t, 1.3, paused.CostUSD, 1e-9) // 0.1 M × $10 + 0.01 M × $30
	assert.Contains(t, paused.PendingQuestion, "$1.30 spent")

	msgs := h.messages(conv)
	require.NotNil(t, msgs[1].Usage, "usage is stored per step")
	assert.Equal(t, int64(100_000), msgs[1].Usage.PromptTokens)
	assert.InDelta(t, 1.3, msgs[1].CostUSD, 1e-9)

	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.InDelta(t, 2.3, done.Limits.MaxCostUSD, 1e-9)
	view, err := h.store.LoadConversation(context.Background(), conv)
	require.NoError(t, err)
	assert.InDelta(t, done.CostUSD, view.CostUSD, 1e-9, "spend adds up per conversation")
}

func TestTimeLimitPauses(t *testing.T) {
	t.Parallel()
	slow := compat.Reply{Text: "a b c d e", ChunkDelay: 30 * time.Millisecond,
		ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"slow"}`)}}
	h := newHarness(t, script(t, slow, complete("ok")), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.Limits.MaxMinutes = 0.001 }) // 60 ms
	conv := h.conversation()
	task := h.start(conv, "Take time")
	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseReason("time"), paused.PauseReason)
	assert.GreaterOrEqual(t, paused.ActiveMS, int64(60))
	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Greater(t, done.Limits.MaxMinutes, 10.0)
}

func TestRepeatedCallsAreNudgedThenPaused(t *testing.T) {
	t.Parallel()
	same := compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{"path":"."}`)}}
	sameReordered := compat.Reply{ToolCalls: []chat.ToolCall{call("list_files", `{ "path" : "." }`)}}
	h := newHarness(t, script(t, same, same, sameReordered, same, same, complete("stopped looping")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Loop")
	paused := h.events.waitStatus(task.ID, chat.StatusPaused)
	assert.Equal(t, chat.PauseReason("repeat"), paused.PauseReason)
	assert.Contains(t, paused.PendingQuestion, "same list_files call 5 times")

	var results []string
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleTool {
			results = append(results, m.Content)
		}
	}
	require.Len(t, results, 4)
	assert.NotContains(t, results[1], "Note:")
	assert.Contains(t, results[2], "made this exact call 3 times")
	assert.Contains(t, results[3], "4 times")

	require.NoError(t, h.runner.Continue(context.Background(), task.ID))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}

func TestStopKillsTheShellCommandAndItsChildren(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{ToolCalls: []chat.ToolCall{
		call("run_command", `{"command":"sleep 300 & echo $! > child.pid; wait"}`)}},
	), harnessOpts{hostPids: true})
	h.settings(func(s *chat.Settings) { s.AutoApprove["destructive"] = true })
	conv := h.conversation()
	task := h.start(conv, "Run it")
	h.events.waitStatus(task.ID, chat.StatusToolExecuting)
	pidFile := filepath.Join(h.workspace(conv), "child.pid")
	pid := waitPID(t, pidFile)
	require.NoError(t, syscall.Kill(pid, 0), "the grandchild runs")

	res, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	assert.True(t, res.Stopped)
	assert.Eventually(t, func() bool { return processGone(pid) }, time.Minute, 10*time.Millisecond,
		"the grandchild is gone after Stop")
	msgs := h.messages(conv)
	assert.Empty(t, openToolCalls(msgs))
}

// waitPID waits for a command to write a process id into file.
func waitPID(t *testing.T, file string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)
	return pid
}

// processGone reports whether pid has exited (a zombie counts as gone).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

func TestRetryResumesWithoutRerunningFinishedTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"echo ran >> log.txt"}`)}},
		compat.Reply{Status: 503, ErrorMessage: "overloaded"},
		complete("recovered"),
	), harnessOpts{allowRejections: true})
	h.settings(func(s *chat.Settings) { s.AutoApprove["destructive"] = true })
	conv := h.conversation()
	task := h.start(conv, "Run once")
	failed := h.events.waitStatus(task.ID, chat.StatusError)
	assert.Contains(t, failed.ErrorMessage, "The model server failed (HTTP 503)")

	ctx := context.Background()
	_, err := h.runner.Retry(ctx, "no-such-task")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	resumed, err := h.runner.Retry(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StatusRunning, resumed.Status)
	assert.Empty(t, resumed.ErrorMessage)
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, 3, done.StepCount, "the step count goes on from where it was")
	b, err := os.ReadFile(filepath.Join(h.workspace(conv), "log.txt"))
	require.NoError(t, err)
	assert.Equal(t, "ran\n", string(b), "the finished command did not run again")

	_, err = h.runner.Retry(ctx, task.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "only failed tasks are retried")
}

// A command's output is shown as it arrives, before the command ends: the
// first line is published while the command still waits for the second.
func TestACommandsOutputIsPublishedLive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"echo first; while [ ! -f go ]; do sleep 0.02; done; echo second"}`)}},
		complete("ran"),
	), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.AutoApprove["destructive"] = true })
	conv := h.conversation()
	task := h.start(conv, "Run it")
	// Called by wait, which holds the recorder's lock.
	live := func(want string) bool {
		var all strings.Builder
		for _, o := range h.events.outputs {
			if o.TaskID == task.ID && o.CallID != "" && o.ConversationID == conv {
				all.WriteString(o.Text)
			}
		}
		return strings.Contains(all.String(), want)
	}
	h.events.wait("the first line, live", func() bool { return live("first") })
	assert.Equal(t, chat.StatusToolExecuting, h.task(task.ID).Status, "the command is still running")
	require.NoError(t, os.WriteFile(filepath.Join(h.workspace(conv), "go"), nil, 0o644))
	h.events.wait("the second line, live", func() bool { return live("second") })
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}
