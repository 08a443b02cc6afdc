package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func roles(msgs []chat.Message) []chat.Role {
	out := make([]chat.Role, len(msgs))
	for i, m := range msgs {
		out[i] = m.Role
	}
	return out
}

func TestTaskRunsToCompletion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Let me look into it.", ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"Halfway there"}`)}},
		compat.Reply{Text: "All done.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"Wrote the plan"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write a plan")
	assert.Equal(t, chat.StatusRunning, task.Status)
	assert.NotEmpty(t, task.ID)

	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "Wrote the plan", done.Summary)
	assert.Equal(t, 2, done.StepCount)
	assert.NotNil(t, done.EndedAt)
	assert.Positive(t, done.Usage.TotalTokens)
	assert.Equal(t, done, h.task(task.ID), "the published final state is the stored one")

	msgs := h.messages(conv)
	assert.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleAssistant, chat.RoleTool}, roles(msgs))
	assert.Equal(t, "Let me look into it.", msgs[1].Content)
	assert.Equal(t, ToolSendUpdate, msgs[1].ToolCalls[0].Name)
	assert.Equal(t, 1, msgs[1].Step)
	assert.Equal(t, 2, msgs[3].Step)
	for _, m := range msgs {
		assert.False(t, m.Streaming, "no message stays streaming")
	}

	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "system", reqs[0].Messages[0].Role)
	assert.Equal(t, "user: Write a plan", lastMessages(reqs[0], 1)[0])
	assert.Len(t, reqs[0].Tools, 6+len(tools.Builtin()), "the control tools, memory and update_plan included (reflect only in a reflection), and the built-ins")
	assert.True(t, reqs[0].Stream)
	assert.Equal(t, []chat.TaskStatus{chat.StatusRunning, chat.StatusThinking, chat.StatusCompleted},
		compactStatuses(h.events.statuses(task.ID)))
}

// compactStatuses drops consecutive repeats (usage updates cause them).
func compactStatuses(in []chat.TaskStatus) []chat.TaskStatus {
	var out []chat.TaskStatus
	for _, s := range in {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

func TestAskUserWaitsForTheAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which color?","choices":["Red"," Blue ",""]}`)}},
		compat.Reply{Text: "Blue it is.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"Chose blue"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Pick a color")

	waiting := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.Equal(t, "Which color?", waiting.PendingQuestion)
	assert.Equal(t, []string{"Red", "Blue"}, waiting.PendingChoices)
	assert.Equal(t, waiting.PendingChoices, h.task(task.ID).PendingChoices, "the question is stored while waiting")

	ctx := context.Background()
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(h.runner.Respond(ctx, task.ID, "   ")))
	require.NoError(t, h.runner.Respond(ctx, task.ID, "Blue"))

	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Empty(t, done.PendingQuestion)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "tool: Blue", lastMessages(reqs[1], 1)[0], "the answer is the ask_user call's result")

	// Answering a task that no longer waits is refused and changes nothing.
	before := len(h.messages(conv))
	err := h.runner.Respond(ctx, task.ID, "Red")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "not waiting")
	assert.Len(t, h.messages(conv), before)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(h.runner.Respond(ctx, "no-such-task", "x")))
}

func TestStopMidStreamClosesTheConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "This is a long answer that the user will stop", ChunkDelay: 2 * time.Millisecond, HangAfterText: true},
		compat.Reply{Text: "Fresh start.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Tell me a story")

	h.events.wait("the streamed text", func() bool {
		for _, d := range h.events.deltas {
			if strings.HasSuffix(d.Text, "stop") {
				return true
			}
		}
		return false
	})
	res, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	assert.True(t, res.Stopped)
	assert.Equal(t, chat.StatusCancelled, res.Task.Status)
	assert.Equal(t, chat.StatusCancelled, h.task(task.ID).Status, "stored as cancelled before Stop returns")

	select {
	case <-h.server.Disconnects():
	case <-time.After(waitSilence):
		t.Fatal("the model server never saw the client hang up")
	}

	msgs := h.messages(conv)
	require.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleSystem}, roles(msgs))
	assert.Equal(t, "This is a long answer that the user will stop", msgs[1].Content, "the text shown so far is kept")
	assert.False(t, msgs[1].Streaming)
	assert.Equal(t, "Stopped by user", msgs[2].Content)
	// The window is told the stream ended without being sent the text
	// again: its deltas carried it all, and the end gives its length.
	h.events.mu.Lock()
	var streamed strings.Builder
	for _, m := range h.events.messages {
		if m.ID == msgs[1].ID {
			streamed.Reset()
			streamed.WriteString(m.Content)
		}
	}
	for _, d := range h.events.deltas {
		if d.MessageID == msgs[1].ID && !d.Reasoning {
			streamed.WriteString(d.Text)
		}
	}
	ended := h.events.ended
	h.events.mu.Unlock()
	assert.Equal(t, msgs[1].Content, streamed.String(), "the message and its deltas carried the whole reply")
	require.Len(t, ended, 1)
	assert.Equal(t, msgs[1].ID, ended[0].Message.ID)
	assert.Empty(t, ended[0].Message.Content, "the end does not carry the text again")
	assert.Equal(t, len(msgs[1].Content), ended[0].ContentBytes)
	assert.Equal(t, msgs[1].Rev, ended[0].Message.Rev)

	// Stopping again is a no-op with a clear answer.
	again, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	assert.False(t, again.Stopped)
	assert.Contains(t, again.Message, "already been stopped")
	assert.Len(t, h.messages(conv), 3)

	// The conversation is free and its transcript valid for the next task.
	next := h.start(conv, "Try again")
	h.events.waitStatus(next.ID, chat.StatusCompleted)
}

func TestStopWhileWaitingReleasesTheQuestion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "One question first.", ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Sure?"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"second task"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Do it")
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)

	res, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
	assert.True(t, res.Stopped)
	assert.Empty(t, res.Task.PendingQuestion)

	msgs := h.messages(conv)
	require.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleSystem}, roles(msgs))
	assert.Equal(t, msgs[1].ToolCalls[0].ID, msgs[2].ToolCallID, "the open ask_user call gets a result")
	assert.True(t, msgs[2].IsError)
	assert.Contains(t, msgs[2].Content, "Cancelled")
	assert.Equal(t, chat.OutcomeStopped, msgs[2].Outcome, "the question was stopped, not failed")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(h.runner.Respond(context.Background(), task.ID, "yes")))

	next := h.start(conv, "Next")
	h.events.waitStatus(next.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.True(t, contains(lastMessages(reqs[1], 3), "Cancelled"))
}

func TestUnknownToolAndBadArgumentsGetErrorResults(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("delete_everything", `{}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary": "unterminated`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"back on track"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question": "  "}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call("read_file", `{"path": 7}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"recovered"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Go")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "recovered", done.Summary)

	var results []chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleTool {
			results = append(results, m)
		}
	}
	require.Len(t, results, 6)
	assert.True(t, results[0].IsError)
	assert.Contains(t, results[0].Content, `unknown tool "delete_everything"`)
	assert.Contains(t, results[0].Content, "task_complete, ask_user, send_update, remember, forget, update_plan, reflect, list_files")
	assert.True(t, results[1].IsError)
	assert.Contains(t, results[1].Content, "not valid JSON")
	assert.False(t, results[2].IsError)
	assert.True(t, results[3].IsError)
	assert.Contains(t, results[3].Content, `non-empty "question"`)
	assert.True(t, results[4].IsError)
	assert.Contains(t, results[4].Content, "do not match its schema")
	assert.NotContains(t, results[4].Content, "mem://")
	assert.False(t, results[5].IsError)

	reqs := h.server.Requests()
	require.Len(t, reqs, 6)
	assert.True(t, contains(lastMessages(reqs[1], 1), "unknown tool"), "the model is told what went wrong")
}

func TestThreeInvalidCallsInARowEndTheTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("nope", `{}`), call(ToolSendUpdate, `not json`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call("read_file", `{}`), call(ToolTaskComplete, `{"summary":"never"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Go")
	done := h.events.waitStatus(task.ID, chat.StatusError)
	assert.Contains(t, done.ErrorMessage, "3 invalid tool calls in a row")
	assert.Contains(t, done.ErrorMessage, "missing property 'path'")
	// The call after the third invalid one is answered too: the transcript
	// stays valid for whatever comes next.
	assert.Empty(t, openToolCalls(h.messages(conv)))
}

func TestTwoToolCallsInOneReply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Done.", ToolCalls: []chat.ToolCall{
			call(ToolSendUpdate, `{"message":"Finished the draft"}`),
			call(ToolTaskComplete, `{"summary":"Draft ready"}`),
			call(ToolSendUpdate, `{"message":"too late"}`),
		}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"next"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Draft")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "Draft ready", done.Summary)
	msgs := h.messages(conv)
	require.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleTool, chat.RoleTool}, roles(msgs))
	for i, c := range msgs[1].ToolCalls {
		assert.Equal(t, c.ID, msgs[2+i].ToolCallID, "results follow the calls, in order")
	}
	assert.Contains(t, msgs[4].Content, "Not run")

	// The next task's request carries all three results: the API accepts it.
	next := h.start(conv, "Again")
	h.events.waitStatus(next.ID, chat.StatusCompleted)
}

func TestTextOnlyRepliesEndTheTaskOnTheSecond(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Here is a first thought."},
		compat.Reply{Text: "And that is my answer."},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Think")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "And that is my answer.", done.Summary)
	assert.Equal(t, 2, done.StepCount)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	last := lastMessages(reqs[1], 2)
	assert.Equal(t, "assistant: Here is a first thought.", last[0])
	assert.True(t, strings.HasPrefix(last[1], "user: (automatic)"), "a text-only reply is followed by the nudge: %v", last)
	assert.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleAssistant, chat.RoleTool}, roles(h.messages(conv)),
		"the nudge is never stored; the second reply is stored as the task_complete call it stands for, with its result")
}

func TestTwoTasksAtOnceInTwoConversations(t *testing.T) {
	t.Parallel()
	// The script answers by conversation: the prompt names which.
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if strings.Contains(req.Messages[1].Text(), "slow") {
			return compat.Reply{Text: "waiting forever", HangAfterText: true}
		}
		return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"fast done"}`)}}
	}, harnessOpts{})
	a, b := h.conversation(), h.conversation()
	slow := h.start(a, "slow task")
	fast := h.start(b, "fast task")

	_, err := h.runner.StartTask(context.Background(), a, "a second task here", chat.ModeAgent)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	for _, m := range h.messages(a) {
		assert.NotEqual(t, "a second task here", m.Content, "a refused start stores nothing")
	}

	h.events.waitStatus(fast.ID, chat.StatusCompleted)
	assert.Equal(t, chat.StatusThinking, h.task(slow.ID).Status, "the other task is untouched")
	active, ok := h.runner.ActiveTask(a)
	require.True(t, ok)
	assert.Equal(t, slow.ID, active.ID)
	_, ok = h.runner.ActiveTask(b)
	assert.False(t, ok)

	_, err = h.runner.Stop(context.Background(), slow.ID)
	require.NoError(t, err)
	h.events.waitStatus(slow.ID, chat.StatusCancelled)
}

func TestChatModeIsOneReplyWithoutTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{Text: "Hello there!"}), harnessOpts{})
	conv := h.conversation()
	task, err := h.runner.StartTask(context.Background(), conv, "Hi", chat.ModeChat)
	require.NoError(t, err)
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, chat.ModeChat, done.Mode)
	assert.Equal(t, 1, done.StepCount)
	reqs := h.server.Requests()
	require.Len(t, reqs, 1)
	assert.Empty(t, reqs[0].Tools)
	assert.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant}, roles(h.messages(conv)))
}

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	_, err := h.runner.StartTask(ctx, conv, " \n\t ", chat.ModeAgent)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = h.runner.StartTask(ctx, "no-such-conversation", "hello", chat.ModeAgent)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	_, err = h.runner.StartTask(ctx, conv, "hello", "turbo")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = h.runner.Stop(ctx, "no-such-task")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	assert.Empty(t, h.messages(conv))
	assert.Empty(t, h.server.Requests())
}

func TestModelErrorsEndTheTaskWithAReadableMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{Text: "never sent"}), harnessOpts{apiKey: "the-right-key", allowRejections: true})
	conv := h.conversation()
	task := h.start(conv, "Hello")
	done := h.events.waitStatus(task.ID, chat.StatusError)
	assert.Contains(t, done.ErrorMessage, "The model server rejected the API key")
	assert.NotContains(t, done.ErrorMessage, "test-key", "the key never appears in messages")
	msgs := h.messages(conv)
	assert.Equal(t, chat.RoleSystem, msgs[len(msgs)-1].Role)
	assert.Contains(t, msgs[len(msgs)-1].Content, "rejected the API key")
}

func TestStreamedTextIsCoalescedAndStoredWhole(t *testing.T) {
	t.Parallel()
	words := make([]string, 400)
	for i := range words {
		words[i] = "w"
	}
	text := strings.Join(words, " ")
	h := newHarness(t, script(t, compat.Reply{Text: text}), harnessOpts{flush: 50 * time.Millisecond})
	conv := h.conversation()
	task, err := h.runner.StartTask(context.Background(), conv, "Stream", chat.ModeChat)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	msgs := h.messages(conv)
	require.Len(t, msgs, 2)
	assert.Equal(t, text, msgs[1].Content)
	h.events.mu.Lock()
	defer h.events.mu.Unlock()
	// 400 chunks arrive in well under a second: with a 50 ms interval they
	// must be merged into a handful of deltas.
	assert.Less(t, len(h.events.deltas), 100, "deltas are coalesced")
	var first chat.Message
	for _, m := range h.events.messages {
		if m.ID == msgs[1].ID {
			first = m
			break
		}
	}
	rebuilt := first.Content
	for _, d := range h.events.deltas {
		require.Equal(t, len(rebuilt), d.Offset, "deltas arrive in order with no gap")
		rebuilt += d.Text
	}
	assert.Equal(t, text, rebuilt, "what was streamed is what was stored")
}

func TestRecoverInterruptsTasksThatWereWorking(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("resumed")), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	// A task that was mid-tool when the process died: one call running,
	// one not started yet, and a half-streamed message.
	task := chat.Task{ID: "orphan", ConversationID: conv, Mode: chat.ModeAgent, Status: chat.StatusToolExecuting,
		OriginalPrompt: "x", StartedAt: time.Now(), StepCount: 1, CurrentTool: "list_files", CurrentCallID: "c1"}
	_, err := h.store.StartTask(ctx, task, chat.Message{ID: "p", ConversationID: conv, TaskID: "orphan", Role: chat.RoleUser, Content: "x", CreatedAt: time.Now()})
	require.NoError(t, err)
	_, err = h.store.AddMessage(ctx, chat.Message{ID: "a", ConversationID: conv, TaskID: "orphan", Role: chat.RoleAssistant, Content: "Looking",
		ToolCalls: []chat.ToolCall{{ID: "c1", Name: "list_files", Arguments: "{}"}, {ID: "c2", Name: "list_files", Arguments: `{"path":"sub"}`}}, Streaming: true, CreatedAt: time.Now()})
	require.NoError(t, err)

	interrupted, waiting, err := h.runner.Recover(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, interrupted)
	assert.Equal(t, 0, waiting)
	got := h.task("orphan")
	assert.Equal(t, chat.StatusInterrupted, got.Status)
	assert.Empty(t, got.CurrentCallID)
	msgs := h.messages(conv)
	require.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleSystem}, roles(msgs))
	assert.Equal(t, "c1", msgs[2].ToolCallID)
	assert.Contains(t, msgs[2].Content, "Interrupted: Errand closed while this tool was running")
	assert.Equal(t, chat.OutcomeCutOff, msgs[2].Outcome)
	assert.Equal(t, "Interrupted when Errand closed", msgs[3].Content)
	assert.False(t, msgs[1].Streaming)

	_, err = h.runner.StartTask(ctx, conv, "new", chat.ModeAgent)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "an interrupted task holds its conversation until resumed or dismissed")

	// Resume runs the call that never started, then asks the model.
	_, err = h.runner.Resume(ctx, "orphan")
	require.NoError(t, err)
	h.events.waitStatus("orphan", chat.StatusCompleted)
	msgs = h.messages(conv)
	assert.Empty(t, openToolCalls(msgs))
	reqs := h.server.Requests()
	require.Len(t, reqs, 1)
	assert.True(t, contains(lastMessages(reqs[0], 3), "Interrupted: Errand closed"), "the model is told the call was cut off")
	_, err = h.runner.Resume(ctx, "orphan")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
}

func TestDismissClosesAnInterruptedTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := chat.Task{ID: "t", ConversationID: conv, Mode: chat.ModeAgent, Status: chat.StatusThinking, OriginalPrompt: "x", StartedAt: time.Now(), StepCount: 1}
	_, err := h.store.StartTask(ctx, task, chat.Message{ID: "p", ConversationID: conv, TaskID: "t", Role: chat.RoleUser, Content: "x", CreatedAt: time.Now()})
	require.NoError(t, err)
	_, err = h.store.AddMessage(ctx, chat.Message{ID: "a", ConversationID: conv, TaskID: "t", Role: chat.RoleAssistant,
		ToolCalls: []chat.ToolCall{{ID: "c1", Name: "write_file", Arguments: `{"path":"a","content":"b"}`}}, CreatedAt: time.Now()})
	require.NoError(t, err)
	_, _, err = h.runner.Recover(ctx)
	require.NoError(t, err)
	got, err := h.runner.Dismiss(ctx, "t")
	require.NoError(t, err)
	assert.Equal(t, chat.StatusCancelled, got.Status)
	assert.Empty(t, openToolCalls(h.messages(conv)), "the call that never ran is closed")
	assert.NoFileExists(t, filepath.Join(h.workspace(conv), "a"))
	_, err = h.runner.Dismiss(ctx, "t")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
}

// A reply cut off when Errand closed is marked so, and the resumed step is
// asked without it: the model writes its reply again, once, rather than
// after a copy of its own half.
func TestAResumedStepDoesNotSeeItsCutOffReply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Half of a long answer", ChunkDelay: 2 * time.Millisecond, HangAfterText: true},
		compat.Reply{Text: "The whole answer.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Tell me")
	h.events.wait("the streamed text", func() bool {
		for _, d := range h.events.deltas {
			if strings.HasSuffix(d.Text, "answer") {
				return true
			}
		}
		return false
	})
	h.restart()
	require.Equal(t, chat.StatusInterrupted, h.task(task.ID).Status)
	var partial chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleAssistant {
			partial = m
		}
	}
	assert.Equal(t, chat.OutcomeCutOff, partial.Outcome)
	assert.False(t, partial.Streaming)

	_, err := h.runner.Resume(context.Background(), task.ID)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.False(t, contains(lastMessages(reqs[1], 5), "Half of a long answer"), "the resumed step is asked without its cut-off half")
}

// A failed task's notice is stored and sent marked as an error, so that
// the window says the failure once (folded into its row), not twice.
func TestAFailedTasksNoticeIsMarkedAsAnError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call("nope", `{}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call("nope", `{}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call("nope", `{}`)}},
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Go")
	h.events.waitStatus(task.ID, chat.StatusError)
	var notices []chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleSystem {
			notices = append(notices, m)
		}
	}
	require.Len(t, notices, 1)
	assert.True(t, strings.HasPrefix(notices[0].Content, "The task failed: "), notices[0].Content)
	assert.True(t, notices[0].IsError, "the stored notice is marked as an error")
}
