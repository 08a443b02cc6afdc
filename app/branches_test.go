package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatTurn sends a chat message on the demo model and waits for its reply.
func chatTurn(t *testing.T, a *App, convID, text string) {
	t.Helper()
	task, err := a.Runner.SendChat(convID, text)
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})
}

// Branching into a new conversation copies the history up to a message,
// with the same settings; the workspace folder is shared or copied.
func TestBranchIntoConversationSharesOrCopiesTheWorkspace(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.SetMode(c.ID, "chat")
	require.NoError(t, err)
	chatTurn(t, a, c.ID, "first")
	chatTurn(t, a, c.ID, "second")
	dir, err := a.Conversations.WorkspaceDir(c.ID)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "notes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes", "a.txt"), []byte("kept"), 0o644))
	view, err := a.Conversations.OpenConversation(c.ID, 10)
	require.NoError(t, err)
	require.Len(t, view.Messages, 4)
	firstReply := view.Messages[1]

	shared, err := a.Conversations.BranchIntoConversation(c.ID, firstReply.ID, false)
	require.NoError(t, err)
	assert.Equal(t, "Branch of first", shared.Title)
	assert.Equal(t, chat.ModeChat, shared.Mode, "the same settings")
	assert.Equal(t, dir, shared.Workspace, "the same folder")
	got, err := a.Conversations.OpenConversation(shared.ID, 10)
	require.NoError(t, err)
	require.Len(t, got.Messages, 2)
	assert.Equal(t, firstReply.Content, got.Messages[1].Content)

	copied, err := a.Conversations.BranchIntoConversation(c.ID, firstReply.ID, true)
	require.NoError(t, err)
	copyDir, err := a.Conversations.WorkspaceDir(copied.ID)
	require.NoError(t, err)
	assert.NotEqual(t, dir, copyDir)
	b, err := os.ReadFile(filepath.Join(copyDir, "notes", "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "kept", string(b))

	_, err = a.Conversations.BranchIntoConversation(c.ID, "6f1f7d0e-0000-4000-8000-000000000000", false)
	assert.Equal(t, chat.CodeNotFound, code(err))
	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, list, 3, "a message that is gone makes no conversation")
}

// A search hit on another branch opens that branch; the version arrows
// switch through the bindings.
func TestMessagesAroundOpensTheBranchOfAMessage(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.SetMode(c.ID, "chat")
	require.NoError(t, err)
	chatTurn(t, a, c.ID, "hello")
	old, err := a.Conversations.OpenConversation(c.ID, 10)
	require.NoError(t, err)
	task, err := a.Runner.Regenerate(c.ID, "", "")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})
	now, err := a.Conversations.OpenConversation(c.ID, 10)
	require.NoError(t, err)
	assert.NotEqual(t, old.Messages[1].ID, now.Messages[1].ID)
	assert.NotEqual(t, old.Messages[1].Content, now.Messages[1].Content, "the demo model varies its replies")

	page, err := a.Conversations.GetMessagesAround(c.ID, old.Messages[1].ID, 10)
	require.NoError(t, err)
	require.Len(t, page.Messages, 2)
	assert.Equal(t, old.Messages[1].ID, page.Messages[1].ID, "the old reply's branch is shown")

	back, err := a.Conversations.ShowVersion(c.ID, old.Messages[1].ID, 1, 10)
	require.NoError(t, err)
	assert.Equal(t, now.Messages[1].ID, back.Messages[1].ID)
	_, err = a.Conversations.ShowVersion(c.ID, old.Messages[1].ID, 2, 10)
	assert.Equal(t, chat.CodeInvalid, code(err))
}
