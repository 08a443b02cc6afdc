package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnswerAQuestionAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "One thing first.", ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which city?","choices":["Lisbon","Porto"]}`)}},
		compat.Reply{Text: "Porto it is.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"Picked Porto"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Plan a trip")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)

	interrupted, waiting := h.restart()
	assert.Equal(t, 0, interrupted)
	assert.Equal(t, 1, waiting)
	got := h.task(task.ID)
	assert.Equal(t, chat.StatusWaitingUser, got.Status, "the question is still waiting after the restart")
	assert.Equal(t, "Which city?", got.PendingQuestion)
	assert.Equal(t, []string{"Lisbon", "Porto"}, got.PendingChoices)

	require.NoError(t, h.runner.Respond(context.Background(), task.ID, "Porto"))
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "Picked Porto", done.Summary)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2, "the question was not asked of the model again")
	assert.Equal(t, "tool: Porto", lastMessages(reqs[1], 1)[0])
}

func TestAnApprovalCardSurvivesARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, writeFile("a.txt", "after restart"), complete("written")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write")
	before := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval

	_, waiting := h.restart()
	assert.Equal(t, 1, waiting)
	after := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, after)
	assert.Equal(t, before.CallID, after.CallID)
	assert.Equal(t, before.Preview, after.Preview)
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, after.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	b, err := os.ReadFile(filepath.Join(h.workspace(conv), "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "after restart", string(b))
}

func TestQuittingMidToolInterruptsAndTheToolIsNotRerun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"echo ran >> log.txt; sleep 3600 & echo $! > child.pid; wait"}`)}},
		complete("checked the log instead"),
	), harnessOpts{hostPids: true})
	h.settings(func(s *chat.Settings) { s.AutoApprove["destructive"] = true })
	conv := h.conversation()
	task := h.start(conv, "Run it")
	h.events.waitStatus(task.ID, chat.StatusToolExecuting)
	pidFile := filepath.Join(h.workspace(conv), "child.pid")
	pid := waitPID(t, pidFile)

	start := time.Now()
	interrupted, _ := h.restart()
	// The tool's child sleeps an hour: a minute is a bound only a quit that
	// waited for it reaches.
	assert.Less(t, time.Since(start), time.Minute, "quitting stops the tool at once")
	assert.Equal(t, 0, interrupted, "already stored as interrupted at shutdown")
	got := h.task(task.ID)
	assert.Equal(t, chat.StatusInterrupted, got.Status)
	assert.Eventually(t, func() bool { return processGone(pid) }, time.Minute, 10*time.Millisecond)

	_, err := h.runner.Resume(context.Background(), task.ID)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	b, err := os.ReadFile(filepath.Join(h.workspace(conv), "log.txt"))
	require.NoError(t, err)
	assert.Equal(t, "ran\n", string(b), "the interrupted command was not run again")
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, lastMessages(reqs[1], 1)[0], "Interrupted: Errand closed while this tool was running")
}
