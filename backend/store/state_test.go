package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func listed(t *testing.T, s *Store, archived bool, title string) []string {
	t.Helper()
	page, err := s.ConversationsPage(context.Background(), chat.ConversationQuery{Title: title, Limit: 50, Archived: archived})
	require.NoError(t, err)
	var ids []string
	for _, c := range page.Items {
		ids = append(ids, c.ID)
	}
	return ids
}

func TestAnArchivedConversationLeavesTheListUntilRestoredAcrossARestart(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	keep, gone := newConversation(t, s), newConversation(t, s)
	_, err := s.RenameConversation(ctx, gone.ID, "Trip to Lisbon")
	require.NoError(t, err)

	c, err := s.ArchiveConversation(ctx, gone.ID, true)
	require.NoError(t, err)
	assert.True(t, c.Archived)
	assert.Equal(t, []string{keep.ID}, listed(t, s, false, ""), "out of the list")
	assert.Equal(t, []string{gone.ID}, listed(t, s, true, ""), "into the Archived view")
	assert.Equal(t, []string{gone.ID}, listed(t, s, true, "lisbon"), "found by its title there")
	assert.Empty(t, listed(t, s, false, "lisbon"))

	// No task starts in it: restore it first.
	task, prompt := newTask(gone.ID, "Book it")
	_, err = s.StartTask(ctx, task, prompt)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "restore it")
	msgs, err := s.Messages(ctx, gone.ID)
	require.NoError(t, err)
	assert.Empty(t, msgs, "the refused start stored nothing")

	s.Close()
	s, err = Open(ctx, path)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, []string{gone.ID}, listed(t, s, true, ""), "still archived after a restart")

	c, err = s.ArchiveConversation(ctx, gone.ID, false)
	require.NoError(t, err)
	assert.False(t, c.Archived)
	assert.ElementsMatch(t, []string{keep.ID, gone.ID}, listed(t, s, false, ""), "Restore brings it back")
	assert.Empty(t, listed(t, s, true, ""))
}

func TestArchivingIsRefusedWhileATaskIsUnfinished(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "Work")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	_, err = s.ArchiveConversation(ctx, c.ID, true)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	got, err := s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.False(t, got.Archived, "nothing changed")

	task.Status = chat.StatusCancelled
	task.Rev++
	_, err = s.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	got, err = s.ArchiveConversation(ctx, c.ID, true)
	require.NoError(t, err)
	assert.True(t, got.Archived, "once the task has ended")
}

func TestAnEndedConversationKeepsItsReasonUntilANewTaskReopensIt(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)

	_, err := s.EndConversation(ctx, c.ID, chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByAgent, Reason: strings.Repeat("x", chat.MaxEndReasonBytes+1)})
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "a reason over 1 KB")
	got, err := s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StateActive, got.State, "nothing changed")

	got, err = s.EndConversation(ctx, c.ID, chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByPerson, Reason: " Done\twith it \n"})
	require.NoError(t, err)
	assert.Equal(t, chat.StateEnded, got.State)
	assert.Equal(t, "Done with it", got.EndReason)
	got, err = s.EndConversation(ctx, c.ID, chat.ConversationEnd{State: chat.StateCompleted})
	require.NoError(t, err)
	assert.Equal(t, chat.StateEnded, got.State, "completing does not undo an early end")

	s.Close()
	s, err = Open(ctx, path)
	require.NoError(t, err)
	defer s.Close()
	got, err = s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByPerson, Reason: "Done with it"},
		chat.ConversationEnd{State: got.State, By: got.EndedBy, Reason: got.EndReason}, "after a restart")

	task, prompt := newTask(c.ID, "Once more")
	_, err = s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	got, err = s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StateActive, got.State, "a new task makes it active")
	assert.Empty(t, got.EndReason)
}

func TestAgentStatsCountConversationsCompletedTasksAndLastUse(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	a, b := newConversation(t, s), newConversation(t, s)
	_, err := s.SetAgent(ctx, b.ID, chat.AgentQuiz)
	require.NoError(t, err)
	at := time.Now().UTC().Truncate(time.Millisecond)
	for i, st := range []chat.TaskStatus{chat.StatusCompleted, chat.StatusError} {
		task, prompt := newTask(b.ID, "Quiz me")
		task.AgentID, task.StartedAt = chat.AgentQuiz, at.Add(time.Duration(i)*time.Second)
		_, err := s.StartTask(ctx, task, prompt)
		require.NoError(t, err)
		task.Status, task.Rev = st, 2
		_, err = s.FinishTask(ctx, task, nil)
		require.NoError(t, err)
	}
	_, err = s.ArchiveConversation(ctx, a.ID, true)
	require.NoError(t, err)

	stats, err := s.AgentStats(ctx)
	require.NoError(t, err)
	require.Len(t, stats, 2)
	assert.Equal(t, chat.AgentStats{AgentID: chat.AgentErrand, Conversations: 1}, stats[0], "an archived conversation counts")
	assert.Equal(t, chat.AgentQuiz, stats[1].AgentID)
	assert.Equal(t, 1, stats[1].Conversations)
	assert.Equal(t, 1, stats[1].CompletedTasks, "the failed task is not counted")
	require.NotNil(t, stats[1].LastUsedAt)
	assert.True(t, at.Add(time.Second).Equal(*stats[1].LastUsedAt), "the latest task's start")
}
