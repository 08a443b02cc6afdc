package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With no history the first screen opens a new conversation; the next
// start opens that one again rather than storing a second empty one.
func TestFirstScreenOfAnEmptyHistoryOpensOneNewConversation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	first, err := a.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	assert.True(t, first.Status.Ready)
	require.NotNil(t, first.Conversations)
	assert.Empty(t, first.Conversations.Items, "the list as it was read, before the new conversation")
	require.NotNil(t, first.Open)
	assert.Empty(t, first.Open.Messages)
	ws, err := a.Conversations.Workspace(first.Open.Conversation.ID)
	require.NoError(t, err)
	require.NotNil(t, first.Workspace, "the bar under the title shows the folder in the first paint")
	assert.Equal(t, ws, *first.Workspace)
	assert.True(t, first.Workspace.Default)
	require.NotNil(t, first.ModelInfo)
	assert.True(t, first.ModelInfo.Demo)
	require.NotNil(t, first.ShowThinking)
	assert.True(t, *first.ShowThinking)
	assert.NotEmpty(t, first.Agents)

	a.Shutdown(context.Background())
	again := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	second, err := again.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	require.NotNil(t, second.Conversations)
	require.Len(t, second.Conversations.Items, 1)
	require.NotNil(t, second.Open)
	assert.Equal(t, first.Open.Conversation.ID, second.Open.Conversation.ID)
	all, err := again.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, all, 1, "no second empty conversation")
}

// With a history, the first screen opens the conversation of the newest
// activity, as OpenConversation reads it, and lists the first page.
func TestFirstScreenOpensTheNewestConversation(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	older, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.store.AddMessage(t.Context(), chat.Message{
		ID: uuid.NewString(), ConversationID: older.ID, Role: chat.RoleUser, Content: "Plan the trip", CreatedAt: time.Now().UTC().Add(time.Minute),
	})
	require.NoError(t, err)

	got, err := a.Health.FirstScreen(1, 100)
	require.NoError(t, err)
	require.NotNil(t, got.Conversations)
	listed, err := a.Conversations.ListConversationsPage("", "", 1, "", false)
	require.NoError(t, err)
	assert.Equal(t, listed, *got.Conversations)
	require.NotNil(t, got.Open)
	assert.Equal(t, older.ID, got.Open.Conversation.ID)
	view, err := a.Conversations.OpenConversation(older.ID, 100)
	require.NoError(t, err)
	assert.Equal(t, view, *got.Open)
	require.Len(t, got.Open.Messages, 1)
	assert.Equal(t, "Plan the trip", got.Open.Messages[0].Content)
	ws, err := a.Conversations.Workspace(older.ID)
	require.NoError(t, err)
	require.NotNil(t, got.Workspace)
	assert.Equal(t, ws, *got.Workspace)
}

// When Errand could not start, the first screen still answers: the status
// alone, which says why.
func TestFirstScreenOfAnUnavailableErrandIsItsStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := Unavailable(Config{DataDir: dir}, errors.New("the data folder cannot be read"))
	got, err := h.FirstScreen(50, 100)
	require.NoError(t, err)
	assert.False(t, got.Status.Ready)
	assert.Equal(t, dir, got.Status.DataDir)
	assert.NotEmpty(t, got.Status.Message)
	assert.Nil(t, got.Conversations)
	assert.Nil(t, got.Open)
	assert.Nil(t, got.ModelInfo)
	assert.Empty(t, got.Agents)
}
