package store

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNonFiniteNumbersAreNeverStored(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	for _, bad := range []func(*chat.Task){
		func(t *chat.Task) { t.CostUSD = math.Inf(1) },
		func(t *chat.Task) { t.CostUSD = math.NaN() },
		func(t *chat.Task) { t.Limits.MaxMinutes = math.NaN() },
		func(t *chat.Task) { t.Limits.MaxCostUSD = math.Inf(1) },
	} {
		next := task
		next.Rev++
		bad(&next)
		err := s.UpdateTask(ctx, next)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
		_, err = s.Record(ctx, next, nil)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
		_, err = s.FinishTask(ctx, next, nil)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	}
	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, task.Rev, got.Rev, "nothing was written")

	m := chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleAssistant, CostUSD: math.Inf(1), CreatedAt: time.Now()}
	_, err = s.AddMessage(ctx, m)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	m.CostUSD = 0
	m, err = s.AddMessage(ctx, m)
	require.NoError(t, err)
	m.CostUSD = math.NaN()
	_, err = s.UpdateMessage(ctx, m)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))

	st := chat.DefaultSettings()
	st.Prices["m"] = chat.Price{InputPerMTok: math.Inf(1)}
	err = s.SaveSettings(ctx, st)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), `price of "m"`)
}

// A file written before costs were bounded may hold an infinite cost: it
// reads back as a finite one, and what the window is sent encodes.
func TestAnInfiniteCostInAnOldFileReadsBackFinite(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	stored, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	_, err = s.db.Exec(`UPDATE tasks SET cost_usd = ? WHERE id = ?`, math.Inf(1), task.ID)
	require.NoError(t, err)
	_, err = s.db.Exec(`UPDATE messages SET cost_usd = ? WHERE id = ?`, math.Inf(1), stored.ID)
	require.NoError(t, err)

	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, float64(chat.CostCeilingUSD), got.CostUSD)
	list, err := s.ListConversations(ctx)
	require.NoError(t, err)
	_, err = json.Marshal(list)
	require.NoError(t, err)
	view, err := s.LoadConversation(ctx, c.ID)
	require.NoError(t, err)
	_, err = json.Marshal(view)
	require.NoError(t, err)
	assert.True(t, chat.Finite(view.CostUSD))

	// And the task can go on being stored.
	got.Rev++
	got.Status = chat.StatusCompleted
	_, err = s.FinishTask(ctx, got, nil)
	require.NoError(t, err)
}

func TestAHugeIDIsQuotedShort(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	huge := strings.Repeat("x", 5<<20)
	_, err := s.GetConversation(context.Background(), huge)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	assert.Less(t, len(err.Error()), 120)
	_, err = s.GetTask(context.Background(), huge)
	assert.Less(t, len(err.Error()), 120)
}

func TestAPromptIsBoundedAndItsTitleClean(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, strings.Repeat("a", chat.MaxMessageBytes+1))
	_, err := s.StartTask(ctx, task, prompt)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Less(t, len(err.Error()), 120)

	task, prompt = newTask(c.ID, "Rename\u202Efdp.exe\x00 the\nfiles")
	_, err = s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	got, err := s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, "Renamefdp.exe the files", got.Title)
}
