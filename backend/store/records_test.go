package store

import (
	"context"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// record is a conversation to import holding the messages with the texts.
func record(texts ...string) chat.ConversationRecord {
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeChat, CreatedAt: now, UpdatedAt: now}
	r := chat.ConversationRecord{Conversation: c}
	for i, text := range texts {
		r.Messages = append(r.Messages, chat.Message{ID: uuid.NewString(), ConversationID: c.ID,
			Role: chat.RoleUser, Content: text, Seq: int64(i + 1), CreatedAt: now})
	}
	return r
}

// The record of a conversation holds every version; imported, each
// message is back in its place in the tree, and the same branch is shown.
func TestARecordImportsWithItsTree(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	turnIn(t, s, c.ID, "B", "b1", nil)
	turnIn(t, s, c.ID, "B edited", "b2", &a1.ID)
	r, err := s.ConversationRecord(ctx, c.ID)
	require.NoError(t, err)
	require.Len(t, r.Messages, 6, "the other version too")
	assert.Equal(t, int64(0), r.Messages[0].OffBranch)
	assert.Positive(t, r.Messages[2].OffBranch, "B is off the branch")

	// The same rows under new ids, as an import gives them.
	ids := map[string]string{"": ""} // old id → new, tasks and messages
	r.Conversation.ID = uuid.NewString()
	for i := range r.Tasks {
		task := &r.Tasks[i]
		ids[task.ID] = uuid.NewString()
		task.ID, task.ConversationID = ids[task.ID], r.Conversation.ID
	}
	for i := range r.Messages {
		m := &r.Messages[i]
		ids[m.ID] = uuid.NewString()
		m.ID, m.ParentID, m.TaskID, m.ConversationID = ids[m.ID], ids[m.ParentID], ids[m.TaskID], r.Conversation.ID
	}
	require.NoError(t, s.ImportConversations(ctx, []chat.ConversationRecord{r}, chat.Restore{}))
	assert.Equal(t, []string{"A", "a1", "B edited", "b2"}, branchTexts(t, s, r.Conversation.ID))
	msgs, err := s.Messages(ctx, r.Conversation.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, msgs[2].Versions)
	_, err = s.ShowVersion(ctx, r.Conversation.ID, msgs[2].ID, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1", "B", "b1"}, branchTexts(t, s, r.Conversation.ID))
}

// A record without parents (written before the tree) is one branch; one
// whose parent is not an earlier message is refused whole.
func TestImportWithoutParentsIsOneBranchAndABadParentIsRefused(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	old := record("one", "two", "three")
	require.NoError(t, s.ImportConversations(ctx, []chat.ConversationRecord{old}, chat.Restore{}))
	msgs, err := s.Messages(ctx, old.Conversation.ID)
	require.NoError(t, err)
	require.Len(t, msgs, 3)
	assert.Empty(t, msgs[0].ParentID)
	assert.Equal(t, msgs[0].ID, msgs[1].ParentID)
	assert.Equal(t, msgs[1].ID, msgs[2].ParentID)

	bad := record("one", "two", "three")
	bad.Messages[1].ParentID = bad.Messages[2].ID
	err = s.ImportConversations(ctx, []chat.ConversationRecord{record("fine"), bad}, chat.Restore{})
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "message 2 continues a message that is not before it")
	list, err := s.ListConversations(ctx)
	require.NoError(t, err)
	assert.Len(t, list, 1, "nothing of the refused import is kept")
}
