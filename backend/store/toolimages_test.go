package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolResultNaming stores, in a new conversation, a tool result that
// names the kept image id (as an MCP tool's result does).
func toolResultNaming(t *testing.T, s *Store, id string) chat.Conversation {
	t.Helper()
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "Take a screenshot")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	_, err = s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleTool, ToolCallID: "c1", ToolName: "screenshot", CreatedAt: time.Now(),
		Content: fmt.Sprintf("[image image/png, 4 bytes, shown to the user: errand-image:%s]", id)})
	require.NoError(t, err)
	return c
}

// An image a tool returned goes with the last conversation that shows it,
// as a person's files do; one no message names is swept with the staged
// files a day later.
func TestToolImagesAreDeletedWithTheirLastConversation(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	id, err := s.SaveToolImage(ctx, "image/png", []byte("\x89PNG"))
	require.NoError(t, err)
	first := toolResultNaming(t, s, id)
	second := toolResultNaming(t, s, id) // a branch copies the result

	require.NoError(t, s.DeleteConversation(ctx, first.ID))
	_, data, err := s.ToolImage(ctx, id)
	require.NoError(t, err, "another conversation still shows the image")
	assert.Equal(t, []byte("\x89PNG"), data)

	require.NoError(t, s.DeleteConversation(ctx, second.ID))
	_, _, err = s.ToolImage(ctx, id)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "the image went with its last conversation")

	unnamed, err := s.SaveToolImage(ctx, "image/png", []byte("\x89PNG"))
	require.NoError(t, err)
	require.NoError(t, s.SweepStagedAttachments(ctx, time.Now().Add(-time.Hour)))
	_, _, err = s.ToolImage(ctx, unnamed)
	require.NoError(t, err, "a tool's image not yet in a result is kept (its result is being written)")
	require.NoError(t, s.SweepStagedAttachments(ctx, time.Now().Add(time.Hour)))
	_, _, err = s.ToolImage(ctx, unnamed)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "an image no result names is swept")
}
