package agent

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

// undoneAfterNextTask runs another task in the conversation, then checks
// that the first task's files are still listed, not dismissed, and undone.
func undoneAfterNextTask(t *testing.T, h *harness, k *checkpoint.Keeper, first chat.Task, file, before string) {
	t.Helper()
	next := h.start(first.ConversationID, "Something else")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(next.ID).Status)
	ctx := context.Background()
	changed, err := k.Changes(ctx, first.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.ChangedFile{{Path: file, Change: "created"}}, changed.Files, "the first task's files are listed still")
	assert.False(t, changed.Dismissed)
	_, err = k.Undo(ctx, first.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{before}, contents(t, h.workspace(first.ConversationID), file))
}

// A task that ended after two text-only replies keeps its Files changed
// and Undo once the next task has run.
func TestATextOnlyCompletedTaskKeepsItsUndoAfterTheNextTask(t *testing.T) {
	t.Parallel()
	h, k := checkpointed(t, checkpoint.Defaults,
		writeFile("notes.txt", "milk"), compat.Reply{Text: "Let me check."}, compat.Reply{Text: "notes.txt holds milk."},
		complete("something else done"))
	conv := h.conversation()
	first := h.start(conv, "Write notes.txt")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(first.ID).Status)
	res := resultsOf(h.messages(conv), ToolTaskComplete)
	require.Len(t, res, 1, "the words became the completion")
	assert.Empty(t, res[0].Outcome, "an accepted completion: its card shows")
	undoneAfterNextTask(t, h, k, first, "notes.txt", "<absent>")
}

// A stopped task's files stay offered for Undo where it ended — at its
// "Stopped by user" notice, dated at its end — after the next task ran.
func TestAStoppedTaskKeepsItsUndoAfterTheNextTask(t *testing.T) {
	t.Parallel()
	h, k := checkpointed(t, checkpoint.Defaults,
		writeFile("notes.txt", "milk"),
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Shall I go on?"}`)}},
		complete("something else done"))
	conv := h.conversation()
	first := h.start(conv, "Write notes.txt, then ask")
	h.events.waitStatus(first.ID, chat.StatusWaitingUser)
	_, err := h.runner.Stop(context.Background(), first.ID)
	require.NoError(t, err)
	stopped := h.task(first.ID)
	require.Equal(t, chat.StatusCancelled, stopped.Status)
	var notice *chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleSystem && m.TaskID == first.ID {
			notice = &m
		}
	}
	require.NotNil(t, notice)
	assert.Equal(t, "Stopped by user", notice.Content)
	assert.True(t, notice.CreatedAt.Equal(*stopped.EndedAt), "the notice is dated at the task's end")
	undoneAfterNextTask(t, h, k, first, "notes.txt", "<absent>")
}

// A write-risk MCP tool's changes are not kept: the task's card names the
// tool as not undoable, beside the files it can undo; a read-only one is
// not named.
func TestMCPToolsThatMayWriteAreNamedAsNotUndoable(t *testing.T) {
	t.Parallel()
	m := everything(t, map[string]string{"echo": "writes"}, "everything__echo", "everything__get-sum")
	h, k, _ := checkpointedIn(t, checkpoint.Defaults, script(t,
		writeFile("notes.txt", "milk"),
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__echo", `{"message":"hi"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call("everything__get-sum", `{"a":1,"b":2}`)}},
		complete("done"),
	), harnessOpts{toolSource: m})
	conv := h.conversation()
	task := h.start(conv, "Write and echo")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	require.Contains(t, toolResult(h.messages(conv), "everything__echo"), "hi")

	changed, err := k.Changes(context.Background(), task.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"everything__echo"}, changed.NotUndoable)
	assert.Equal(t, []chat.ChangedFile{{Path: "notes.txt", Change: "created"}}, changed.Files)
}

// completionOutcomes are the outcomes task_complete's results ended with,
// in order (what decides each completion card).
func completionOutcomes(h *harness, conv string) []chat.ToolOutcome {
	var out []chat.ToolOutcome
	for _, m := range resultsOf(h.messages(conv), ToolTaskComplete) {
		out = append(out, m.Outcome)
	}
	return out
}

// The completion card waits for the reflection: task_complete's result is
// stored as checking, and the attempt the reflection found unmet never
// becomes a completion; the accepted one does.
func TestTheReflectionGatesTheCompletionCard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Write notes.txt=in_progress")),
		complete("wrote it"),
		reflectReply(false, "notes.txt is not written yet"),
		reply(planCall("Write notes.txt=done")),
		complete("wrote it, really"),
		reflectReply(true),
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write notes.txt")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)

	assert.Equal(t, []chat.ToolOutcome{chat.OutcomeUnmet, ""}, completionOutcomes(h, conv))
	var published []chat.ToolOutcome
	h.events.mu.Lock()
	for _, m := range h.events.messages {
		if m.Role == chat.RoleTool && m.ToolName == ToolTaskComplete {
			published = append(published, m.Outcome)
		}
	}
	h.events.mu.Unlock()
	assert.Equal(t, []chat.ToolOutcome{chat.OutcomeChecking, chat.OutcomeUnmet, chat.OutcomeChecking, ""}, published,
		"each completion is shown as being checked until its reflection answers")
}

// A reflection without a verdict counts once as the goal unmet (the model
// is told the check did not answer); the next one without a verdict lets
// the task complete, noting that the check did not answer.
func TestAReflectionWithoutAVerdictCountsOnceAsUnmet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Write notes.txt=done")),
		complete("wrote it"),
		compat.Reply{Text: "Looks fine to me."},
		complete("wrote it, checked"),
		compat.Reply{Text: "Still fine."},
	), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.ReflectionRounds = 3 })
	conv := h.conversation()
	task := h.start(conv, "Write notes.txt")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status)

	assert.Equal(t, []chat.ToolOutcome{chat.OutcomeUnmet, chat.OutcomeUnchecked}, completionOutcomes(h, conv))
	res := resultsOf(h.messages(conv), ToolTaskComplete)
	assert.Contains(t, res[0].Content, "did not answer", "the model is told why it goes on")
	assert.Equal(t, uncheckedNote, res[1].Content, "the card says the check did not answer")
	assert.Contains(t, done.Summary, uncheckedNote)
	assert.Equal(t, 2, done.Reflections)
	reqs := h.server.Requests()
	assert.True(t, contains(lastMessages(reqs[3], 3), "did not answer"), "the next step reads it")
}

// After the last round a reflection that finds the goal unmet ends the
// task with what is open: not a plain completion.
func TestTheLastUnmetReflectionEndsTheTaskIncomplete(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Fix the bug=in_progress")),
		complete("fixed"),
		reflectReply(false, "the test still fails"),
	), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.ReflectionRounds = 1 })
	conv := h.conversation()
	task := h.start(conv, "Fix the bug")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	assert.Equal(t, []chat.ToolOutcome{chat.OutcomeIncomplete}, completionOutcomes(h, conv))
	assert.Equal(t, "Still open:\n- the test still fails", resultsOf(h.messages(conv), ToolTaskComplete)[0].Content)
}
