package agent

import (
	"context"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// autoConversation is a conversation in Auto mode.
func (h *harness) autoConversation() string {
	h.t.Helper()
	id := h.conversation()
	_, err := h.store.SetMode(context.Background(), id, chat.ModeAuto)
	require.NoError(h.t, err)
	return id
}

func (h *harness) send(convID, text string) chat.Task {
	h.t.Helper()
	task, err := h.runner.Send(context.Background(), convID, text)
	require.NoError(h.t, err)
	return task
}

// prompt is the person's message a task answers.
func (h *harness) prompt(convID, taskID string) chat.Message {
	h.t.Helper()
	for _, m := range h.messages(convID) {
		if m.TaskID == taskID && m.Role == chat.RoleUser {
			return m
		}
	}
	h.t.Fatalf("task %s has no message of the person", taskID)
	return chat.Message{}
}

func TestAutoAnswersAQuestionDirectlyAndRunsAFileRequestAsATask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Paris."},
		complete("written"),
	), harnessOpts{})
	conv := h.autoConversation()

	q := h.send(conv, "What is the capital of France?")
	assert.Equal(t, chat.ModeChat, q.Mode)
	require.NotNil(t, q.Decision)
	assert.Equal(t, chat.DecidedAuto, q.Decision.By)
	h.events.waitStatus(q.ID, chat.StatusCompleted)

	w := h.send(conv, "Create a file notes.txt in my workspace with a todo list for the week")
	assert.Equal(t, chat.ModeAgent, w.Mode)
	assert.Equal(t, chat.DecidedAuto, w.Decision.By)
	h.events.waitStatus(w.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	assert.Empty(t, reqs[0].Tools, "the direct answer offers no tools")
	assert.True(t, reqs[1].HasTool(ToolTaskComplete))
	assert.Equal(t, chat.DecidedAuto, h.task(w.ID).Decision.By, "the decision is stored with the reply")
}

func TestSlashCommandsForceTheModeAndAnEmptyOneIsAnError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, complete("done")), harnessOpts{})
	conv := h.autoConversation()
	before := len(h.messages(conv))

	_, err := h.runner.Send(context.Background(), conv, "  /task  ")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "/task needs a message after it")
	assert.Len(t, h.messages(conv), before, "nothing is stored")

	task := h.send(conv, "/task hi")
	assert.Equal(t, chat.ModeAgent, task.Mode, "/task forces a task even for a greeting")
	assert.Equal(t, chat.DecidedForced, task.Decision.By)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, "hi", h.prompt(conv, task.ID).Content, "the command is not part of the message")
}

func TestRerunAnswersTheSameMessageTheOtherWayAsANewVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "Paris."},
		complete("looked it up"),
	), harnessOpts{})
	conv := h.autoConversation()
	first := h.send(conv, "What is the capital of France?")
	h.events.waitStatus(first.ID, chat.StatusCompleted)
	asked := h.prompt(conv, first.ID)

	ctx := context.Background()
	_, err := h.runner.RerunMessage(ctx, conv, asked.ID, chat.ModeAuto)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "a re-run is agent or chat")

	again, err := h.runner.RerunMessage(ctx, conv, asked.ID, chat.ModeAgent)
	require.NoError(t, err)
	assert.Equal(t, chat.ModeAgent, again.Mode)
	assert.Equal(t, chat.DecidedRerun, again.Decision.By)
	h.events.waitStatus(again.ID, chat.StatusCompleted)
	repeat := h.prompt(conv, again.ID)
	assert.NotEqual(t, asked.ID, repeat.ID)
	assert.Equal(t, asked.ParentID, repeat.ParentID, "the re-run is a version of the message, beside the first")
	assert.Equal(t, 2, repeat.Versions)
	reqs := h.server.Requests()
	assert.Equal(t, []string{"user: What is the capital of France?"}, lastMessages(reqs[1], 1), "the model is asked the same message")
	assert.NotContains(t, lastMessages(reqs[1], 10), "assistant: Paris.", "the first answer is on the other version, not in the context")
}

func TestAModelWithoutToolsAnswersDirectlyAndAutoStopsChoosingTasks(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Status: 400, ErrorMessage: `registry.ollama.ai/library/gemma:2b does not support tools`},
		compat.Reply{Text: "Here is a todo list: 1. Rest."},
		compat.Reply{Text: "Another direct answer."},
		compat.Reply{Text: "Direct after a restart too."},
		complete("a task again"),
	), harnessOpts{})
	conv := h.autoConversation()
	text := "Create a file notes.txt in my workspace with a todo list for the week"

	task := h.send(conv, text)
	assert.Equal(t, chat.ModeAgent, task.Mode)
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, chat.ModeChat, done.Mode, "answered in chat mode")
	assert.Equal(t, chat.DecidedFallback, done.Decision.By)
	var notice, answer string
	for _, m := range h.messages(conv) {
		switch {
		case m.TaskID == task.ID && m.Role == chat.RoleSystem:
			notice = m.Content
		case m.TaskID == task.ID && m.Role == chat.RoleAssistant:
			answer = m.Content
		}
	}
	assert.Contains(t, notice, `"test-model" does not support tools`)
	assert.Contains(t, notice, "choose a model that supports tools")
	assert.Equal(t, "Here is a todo list: 1. Rest.", answer)

	next := h.send(conv, text)
	assert.Equal(t, chat.ModeChat, next.Mode, "Auto no longer chooses a task for this model")
	assert.Equal(t, "the model does not support tools", next.Decision.Reason)
	h.events.waitStatus(next.ID, chat.StatusCompleted)

	h.restart()
	again := h.send(conv, text)
	assert.Equal(t, chat.ModeChat, again.Mode, "the refusal is remembered across a restart: no task is tried to fail again")
	h.events.waitStatus(again.ID, chat.StatusCompleted)

	h.settings(func(s *chat.Settings) { s.StepDelayMS = 0 })
	after := h.send(conv, text)
	assert.Equal(t, chat.ModeAgent, after.Mode, "until the settings change")
	h.events.waitStatus(after.ID, chat.StatusCompleted)
}

func TestAnUnsureAutoDecisionAsksTheModelWhenTheSettingAllows(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{Text: "chat"},
		compat.Reply{Text: "Lisbon on a budget: walk, eat at tascas."},
	), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.AutoAskModel = true })
	conv := h.autoConversation()
	task := h.send(conv, "Plan a weekend trip to Lisbon for two, on a budget")
	assert.Equal(t, chat.ModeChat, task.Mode, "the model's answer wins over the unsure local decision")
	assert.Equal(t, "asked the model", task.Decision.Reason)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 2)
	assert.Empty(t, reqs[0].Tools)
	assert.Equal(t, classifyPrompt, reqs[0].Messages[0].Text())
	assert.Len(t, h.messages(conv), 2, "the classification is not part of the transcript")
}
