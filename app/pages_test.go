package app

import (
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHistoryPagesThroughTheBindings(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	var ids []string
	for i := 0; i < 3; i++ {
		c, err := a.Conversations.CreateConversation()
		require.NoError(t, err)
		ids = append(ids, c.ID)
	}
	_, err := a.Conversations.RenameConversation(ids[0], "Quarterly 100% report")
	require.NoError(t, err)
	task, err := a.Runner.StartTask(ids[1], "Sort my photos")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusWaitingUser
	})

	first, err := a.Conversations.ListConversationsPage("", "", 2, "", false)
	require.NoError(t, err)
	require.Len(t, first.Items, 2)
	assert.Equal(t, ids[1], first.Items[0].ID, "the one with a task is the newest")
	require.NotNil(t, first.Items[0].ActiveTask)
	require.NotEmpty(t, first.NextCursor)
	rest, err := a.Conversations.ListConversationsPage("", first.NextCursor, 2, "", false)
	require.NoError(t, err)
	assert.Len(t, rest.Items, 1)
	assert.Empty(t, rest.NextCursor)
	found, err := a.Conversations.ListConversationsPage("  100%  ", "", 50, "", false)
	require.NoError(t, err)
	require.Len(t, found.Items, 1)
	assert.Equal(t, ids[0], found.Items[0].ID)

	full, err := a.Conversations.LoadConversation(ids[1])
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(full.Messages), 3)
	view, err := a.Conversations.OpenConversation(ids[1], 2)
	require.NoError(t, err)
	assert.Equal(t, full.Messages[len(full.Messages)-2:], view.Messages)
	assert.True(t, view.HasOlder)
	require.NotNil(t, view.ActiveTask)
	assert.Equal(t, task.ID, view.ActiveTask.ID)

	older, err := a.Conversations.GetMessagesPage(ids[1], view.Messages[0].ID, 500)
	require.NoError(t, err)
	assert.Equal(t, full.Messages[:len(full.Messages)-2], older.Messages)
	assert.False(t, older.HasOlder)
	around, err := a.Conversations.GetMessagesAround(ids[1], full.Messages[0].ID, 2)
	require.NoError(t, err)
	assert.Equal(t, full.Messages[:2], around.Messages)
	after, err := a.Conversations.GetMessagesAfter(ids[1], full.Messages[0].ID, 1)
	require.NoError(t, err)
	assert.Equal(t, full.Messages[1:2], after.Messages)
}

func TestBadHistoryPageRequestsAreRefused(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.ListConversationsPage("", "not-a-cursor", 10, "", false)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.ListConversationsPage("", "", 0, "", false)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.ListConversationsPage("", "", 501, "", false)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.OpenConversation("", 10)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.OpenConversation(c.ID, -1)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.GetMessagesPage(c.ID, "", 1000)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.GetMessagesPage("missing", "", 10)
	assert.Equal(t, chat.CodeNotFound, code(err))
	_, err = a.Conversations.GetMessagesAround(c.ID, "missing", 10)
	assert.Equal(t, chat.CodeNotFound, code(err))
	_, err = a.Conversations.GetMessagesAfter(c.ID, "", 0)
	assert.Equal(t, chat.CodeInvalid, code(err))
	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, list, 1, "nothing changed")
}
