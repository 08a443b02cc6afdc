package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func done(text string) compat.Reply {
	return compat.Reply{Text: text, ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)}}
}

// requestTexts are the texts of a request's messages after the system prompt.
func requestTexts(req compat.Request) []string {
	var out []string
	for _, m := range req.Messages[1:] {
		out = append(out, m.Role+": "+m.Text())
	}
	return out
}

func texts(msgs []chat.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Content
	}
	return out
}

// Regenerate and edit run tasks on new branches: the model sees the
// current branch only, the old replies stay as versions with their tasks,
// and a mode override runs the prompt as a chat reply.
func TestRegenerateAndEditRunTasksOnNewBranches(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, done("Plan A"), done("Plan B"), done("A list"), compat.Reply{Text: "Just chatting"}), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	first := h.start(conv, "Write a plan")
	h.events.waitStatus(first.ID, chat.StatusCompleted)

	again, err := h.runner.Regenerate(ctx, conv, "", "")
	require.NoError(t, err)
	assert.Equal(t, chat.ModeAgent, again.Mode)
	assert.Equal(t, "Write a plan", again.OriginalPrompt)
	h.events.waitStatus(again.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	assert.Equal(t, []string{"user: Write a plan"}, requestTexts(reqs[1]), "the old reply is not in the new one's context")
	msgs := h.messages(conv)
	assert.Equal(t, "Write a plan", msgs[0].Content)
	assert.Equal(t, "Plan B", msgs[1].Content)
	assert.Equal(t, msgs[0].ID, msgs[1].ParentID)
	assert.Equal(t, 2, msgs[1].Versions, "the regenerated reply has arrows")

	edited, err := h.runner.EditAndResend(ctx, conv, msgs[0].ID, "  Write a list ")
	require.NoError(t, err)
	h.events.waitStatus(edited.ID, chat.StatusCompleted)
	reqs = h.server.Requests()
	assert.Equal(t, []string{"user: Write a list"}, requestTexts(reqs[2]))
	msgs = h.messages(conv)
	assert.Equal(t, "Write a list", msgs[0].Content)
	assert.Equal(t, "A list", msgs[1].Content)
	assert.Equal(t, 2, msgs[0].Versions)

	chatTask, err := h.runner.Regenerate(ctx, conv, "", chat.ModeChat)
	require.NoError(t, err)
	assert.Equal(t, chat.ModeChat, chatTask.Mode)
	h.events.waitStatus(chatTask.ID, chat.StatusCompleted)
	reqs = h.server.Requests()
	assert.Empty(t, reqs[3].Tools, "run as a chat reply: no tools")
	assert.Equal(t, []string{"user: Write a list", "assistant: Just chatting"}, contents2(h.messages(conv)))

	// Back to the first prompt: its latest reply, Plan B, comes back.
	_, err = h.store.ShowVersion(ctx, conv, msgs[0].ID, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"Write a plan", "Plan B"}, texts(h.messages(conv))[:2])
	view, err := h.store.LoadConversation(ctx, conv)
	require.NoError(t, err)
	assert.Len(t, view.Tasks, 4, "every task is kept")
}

func contents2(msgs []chat.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Content != "" {
			out = append(out, string(m.Role)+": "+m.Content)
		}
	}
	return out
}

// While a task runs, regenerate, edit and variations are refused and
// change nothing; bad edits are refused clearly.
func TestBranchingIsRefusedWhileATaskRunsAndBadEditsAreRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, done("First"),
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which one?"}`)}},
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	first := h.start(conv, "One")
	h.events.waitStatus(first.ID, chat.StatusCompleted)
	prompt := h.messages(conv)[0]
	waiting := h.start(conv, "Two")
	h.events.waitStatus(waiting.ID, chat.StatusWaitingUser)
	before := texts(h.messages(conv))

	_, err := h.runner.Regenerate(ctx, conv, "", "")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "task is in progress")
	_, err = h.runner.EditAndResend(ctx, conv, prompt.ID, "Uno")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	_, err = h.runner.Variations(ctx, conv, h.messages(conv)[1].ID, VariationsRequest{Count: 3}, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Equal(t, before, texts(h.messages(conv)), "nothing changed")

	_, err = h.runner.Stop(ctx, waiting.ID)
	require.NoError(t, err)
	h.events.waitStatus(waiting.ID, chat.StatusCancelled)

	_, err = h.runner.EditAndResend(ctx, conv, prompt.ID, "  \n ")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "empty")
	_, err = h.runner.EditAndResend(ctx, conv, h.messages(conv)[1].ID, "mine now")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "only the person's messages are edited")
	_, err = h.runner.EditAndResend(ctx, conv, "0b7c9a54-0000-4000-8000-000000000000", "gone")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	_, err = h.runner.Regenerate(ctx, conv, "", "poem")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Equal(t, before, texts(h.messages(conv))[:len(before)], "nothing changed")
}

// Variations are chat replies written in parallel to the context up to
// the reply, each told to take its own approach, stored as its versions
// off the branch.
func TestVariationsAreVersionsOffTheBranch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{Text: "Original"},
		compat.Reply{Text: "Variation"}, compat.Reply{Text: "Variation"}, compat.Reply{Text: "Variation"},
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task, err := h.runner.StartTask(ctx, conv, "Say hello", chat.ModeChat)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reply := h.messages(conv)[1]

	vs, err := h.runner.Variations(ctx, conv, reply.ID, VariationsRequest{Count: 3, Models: []string{"", ""}}, nil)
	require.NoError(t, err)
	require.Len(t, vs, 3)
	for _, v := range vs {
		require.NotNil(t, v.Message, v.Error)
		assert.Equal(t, "Variation", v.Message.Content)
		assert.Equal(t, reply.ParentID, v.Message.ParentID, "a sibling of the reply")
	}
	approaches := map[string]bool{}
	for _, req := range h.server.Requests()[1:] {
		assert.Empty(t, req.Tools)
		assert.Equal(t, []string{"user: Say hello"}, requestTexts(req))
		system := req.Messages[0].Text()
		assert.Contains(t, system, ChatSystemPrompt)
		assert.Contains(t, system, "of 3")
		approaches[system[strings.LastIndex(system, ":")+1:]] = true
	}
	assert.Len(t, approaches, 3, "each variation is told to take a different approach")
	assert.Equal(t, []string{"Say hello", "Original"}, texts(h.messages(conv)), "the branch shown is unchanged")
	require.NoError(t, h.store.SwitchBranch(ctx, conv, vs[1].Message.ID))
	msgs := h.messages(conv)
	assert.Equal(t, vs[1].Message.ID, msgs[1].ID)
	assert.Equal(t, 4, msgs[1].Versions)

	_, err = h.runner.Variations(ctx, conv, msgs[0].ID, VariationsRequest{Count: 3}, nil)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "variations are of replies")
	_, err = h.runner.Variations(ctx, conv, reply.ID, VariationsRequest{Count: 3}, nil)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "a reply not shown")
}

// A double-clicked Variations writes three versions, not six: the second
// call, made while the first waits for the model, is refused.
func TestADoubleClickedVariationsWritesThreeVersions(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	asked := make(chan struct{}, 10)
	n := 0
	var mu sync.Mutex
	h := newHarness(t, func(*compat.Request) compat.Reply {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			return compat.Reply{Text: "Original"}
		}
		asked <- struct{}{}
		<-release
		return compat.Reply{Text: "Variation"}
	}, harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task, err := h.runner.StartTask(ctx, conv, "Say hello", chat.ModeChat)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reply := h.messages(conv)[1]

	first := make(chan error, 1)
	go func() {
		_, err := h.runner.Variations(ctx, conv, reply.ID, VariationsRequest{Count: 3}, nil)
		first <- err
	}()
	<-asked // the first call is with the model
	_, err = h.runner.Variations(ctx, conv, reply.ID, VariationsRequest{Count: 3}, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "the second click is refused")
	close(release)
	require.NoError(t, <-first)
	require.NoError(t, h.store.SwitchBranch(ctx, conv, reply.ID))
	assert.Equal(t, 1+3, h.messages(conv)[1].Versions)
}
