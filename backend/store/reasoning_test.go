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

func TestReasoningStreamsBesideTheTextAndSurvivesAReopen(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	m, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleAssistant, Reasoning: "Hm", Streaming: true, CreatedAt: time.Now()})
	require.NoError(t, err)
	a, err := s.AppendReasoning(ctx, m.ID, "m, lët me see.")
	require.NoError(t, err)
	assert.Equal(t, chat.Appended{ConversationID: c.ID, TaskID: task.ID, Offset: 2, Rev: 2}, a, "the offset is in the reasoning")
	a, err = s.AppendContent(ctx, m.ID, "Yes")
	require.NoError(t, err)
	assert.Equal(t, 0, a.Offset, "the text starts at its own beginning")
	a, err = s.AppendReasoning(ctx, m.ID, " More.")
	require.NoError(t, err)
	assert.Equal(t, len("Hmm, lët me see."), a.Offset)
	_, err = s.AppendContent(ctx, m.ID, ".")
	require.NoError(t, err)

	msgs, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, "Hmm, lët me see. More.", msgs[1].Reasoning)
	assert.Equal(t, "Yes.", msgs[1].Content)
	assert.Equal(t, 5, msgs[1].Rev)

	// Stopped mid-reply: the chunks stay, and read back the same.
	task.Status = chat.StatusCancelled
	task.Rev++
	_, err = s.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	s.Close()
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	msgs, err = s2.Messages(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, "Hmm, lët me see. More.", msgs[1].Reasoning)
	assert.Equal(t, "Yes.", msgs[1].Content)
	hits, err := s2.Search(ctx, "lët", 10)
	require.NoError(t, err)
	assert.Empty(t, hits, "reasoning is not searched")
	hits, err = s2.Search(ctx, "Yes", 10)
	require.NoError(t, err)
	assert.Len(t, hits, 1)
}

func TestAFinishedReplyKeepsItsReasoningInItsOwnColumns(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	m, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID,
		Role: chat.RoleAssistant, Reasoning: "Think", Streaming: true, CreatedAt: time.Now()})
	require.NoError(t, err)
	_, err = s.AppendReasoning(ctx, m.ID, "ing.")
	require.NoError(t, err)
	m.Content, m.Reasoning, m.ReasoningMS, m.ReasoningData, m.Streaming = "Answer.", "Thinking.", 1234, `[{"type":"thinking"}]`, false
	_, err = s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	s.Close()
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	got, err := s2.GetMessage(ctx, c.ID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "Answer.", got.Content)
	assert.Equal(t, "Thinking.", got.Reasoning, "the chunks are folded in, not doubled")
	assert.Equal(t, int64(1234), got.ReasoningMS)
	assert.Equal(t, `[{"type":"thinking"}]`, got.ReasoningData)
}
