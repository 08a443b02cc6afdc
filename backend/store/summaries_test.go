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

func TestSummaryIsStoredWithItsNoticeAndMessagesAfterSkipsWhatItCovers(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "read everything")
	prompt, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	_, ok, err := s.LatestSummary(ctx, c.ID)
	require.NoError(t, err)
	assert.False(t, ok)

	now := time.Now().UTC()
	sum := chat.Summary{ID: uuid.NewString(), ConversationID: c.ID, ThroughSeq: prompt.Seq,
		Text: "The person asked to read everything.", ToolLog: "read_file: ok", CreatedAt: now}
	notice := chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleSystem, Content: "Earlier messages summarised", CreatedAt: now}
	stored, err := s.AddSummary(ctx, sum, notice)
	require.NoError(t, err)
	assert.Equal(t, sum.ID, stored.SummaryID)

	got, ok, err := s.LatestSummary(ctx, c.ID)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, sum.Text, got.Text)
	assert.Equal(t, "read_file: ok", got.ToolLog)
	byID, err := s.GetSummary(ctx, sum.ID)
	require.NoError(t, err)
	assert.Equal(t, got, byID)

	after, err := s.MessagesSince(ctx, c.ID, got.ThroughSeq)
	require.NoError(t, err)
	require.Len(t, after, 1)
	assert.Equal(t, sum.ID, after[0].SummaryID, "the notice comes back with its summary id")

	_, err = s.GetSummary(ctx, "nope")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))

	empty := sum
	empty.ID, empty.Text = uuid.NewString(), ""
	_, err = s.AddSummary(ctx, empty, notice)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	all, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	assert.Len(t, all, 2, "a refused summary stores nothing")
}

func TestTaskKeepsItsContextFullness(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "go")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	task.ContextTokens, task.ContextLimit, task.Rev = 3120, 8192, task.Rev+1
	require.NoError(t, s.UpdateTask(ctx, task))
	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, 3120, got.ContextTokens)
	assert.Equal(t, 8192, got.ContextLimit)
}
