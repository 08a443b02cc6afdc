package app

import (
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArchivingAConversationWithAnUnfinishedTaskNeedsTheStopConfirmed(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.StartTask(c.ID, "Sort my photos")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusWaitingUser
	})

	_, err = a.Conversations.ArchiveConversation(c.ID, false)
	assert.Equal(t, chat.CodeConflict, code(err), "refused without the confirmation")
	got, err := a.Runner.GetTask(task.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StatusWaitingUser, got.Status, "nothing changed")

	archived, err := a.Conversations.ArchiveConversation(c.ID, true)
	require.NoError(t, err)
	assert.True(t, archived.Archived)
	got, err = a.Runner.GetTask(task.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StatusCancelled, got.Status, "the task was stopped first")

	_, err = a.Runner.StartTask(c.ID, "More")
	assert.Equal(t, chat.CodeConflict, code(err), "no task in an archived conversation")
	restored, err := a.Conversations.RestoreConversation(c.ID)
	require.NoError(t, err)
	assert.False(t, restored.Archived)
}

func TestThePersonEndsAConversationWithAReasonOfAtMost1KB(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)

	_, err = a.Conversations.EndConversation(c.ID, strings.Repeat("é", chat.MaxEndReasonBytes/2+1))
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Equal(t, "reason", frontendError(err).Field)
	view, err := a.Conversations.LoadConversation(c.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StateActive, view.Conversation.State, "nothing changed")
	assert.Empty(t, view.Messages)

	ended, err := a.Conversations.EndConversation(c.ID, "Got what I needed")
	require.NoError(t, err)
	assert.Equal(t, chat.StateEnded, ended.State)
	assert.Equal(t, chat.EndedByPerson, ended.EndedBy)
	view, err = a.Conversations.LoadConversation(c.ID)
	require.NoError(t, err)
	require.Len(t, view.Messages, 1)
	assert.Equal(t, "You ended the conversation: Got what I needed", view.Messages[0].Content)
}
