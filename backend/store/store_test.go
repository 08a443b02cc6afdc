package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newConversation(t testing.TB, s *Store) chat.Conversation {
	t.Helper()
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, s.CreateConversation(context.Background(), c))
	return c
}

func newTask(convID, prompt string) (chat.Task, chat.Message) {
	now := time.Now().UTC()
	t := chat.Task{ID: uuid.NewString(), ConversationID: convID, Mode: chat.ModeAgent,
		Status: chat.StatusRunning, OriginalPrompt: prompt, StartedAt: now, Rev: 1}
	m := chat.Message{ID: uuid.NewString(), ConversationID: convID, TaskID: t.ID,
		Role: chat.RoleUser, Content: prompt, CreatedAt: now}
	return t, m
}

func TestOpenSetsPragmasAndSchemaVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A new file, as on a first start (the other tests open a copy of one).
	s, err := Open(ctx, filepath.Join(t.TempDir(), FileName))
	require.NoError(t, err)
	defer s.Close()
	var mode string
	require.NoError(t, s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode))
	assert.Equal(t, "wal", mode)
	var fk, timeout, version int
	require.NoError(t, s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk))
	require.NoError(t, s.db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout))
	require.NoError(t, s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version))
	assert.Equal(t, 1, fk)
	assert.Equal(t, 5000, timeout)
	assert.Equal(t, SchemaVersion(), version)
	assert.GreaterOrEqual(t, version, 1)
}

func TestReopenKeepsDataAndNewerSchemaIsRefused(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	require.NoError(t, s.Close())

	s2, err := Open(ctx, path)
	require.NoError(t, err)
	got, err := s2.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, c.ID, got.ID)
	_, err = s2.db.ExecContext(ctx, "PRAGMA user_version = 999")
	require.NoError(t, err)
	require.NoError(t, s2.Close())

	_, err = Open(ctx, path)
	require.Error(t, err)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "newer version of Errand")
}

func TestStartTaskTitlesConversationAndAllowsOneActiveTask(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)

	task, prompt := newTask(c.ID, "  Plan a   trip to Lisbon in May, with a budget of about two thousand euros  ")
	stored, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	assert.Positive(t, stored.Seq)

	got, err := s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, "Plan a trip to Lisbon in May, with a budget of about two th…", got.Title)

	second, secondPrompt := newTask(c.ID, "another")
	_, err = s.StartTask(ctx, second, secondPrompt)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	_, err = s.GetTask(ctx, second.ID)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "a refused task must leave nothing behind")
	msgs, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	assert.Len(t, msgs, 1, "a refused task must not store its prompt")

	// Once the first ends, a new task may start; the title stays.
	task.Status = chat.StatusCompleted
	task.Rev++
	_, err = s.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	_, err = s.StartTask(ctx, second, secondPrompt)
	require.NoError(t, err)
	got, _ = s.GetConversation(ctx, c.ID)
	assert.Contains(t, got.Title, "Plan a trip")
}

func TestStartTaskInUnknownConversation(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	task, prompt := newTask("nope", "hello")
	_, err := s.StartTask(context.Background(), task, prompt)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
}

func TestMessagesStreamAndFinish(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	m, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: "Hel", Streaming: true, CreatedAt: time.Now()})
	require.NoError(t, err)
	assert.Equal(t, 1, m.Rev)
	a, err := s.AppendContent(ctx, m.ID, "lo, wörld")
	require.NoError(t, err)
	assert.Equal(t, chat.Appended{ConversationID: c.ID, TaskID: task.ID, Offset: 3, Rev: 2}, a)
	msgs, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	m = msgs[1]
	assert.Equal(t, "Hello, wörld", m.Content)
	assert.Equal(t, 2, m.Rev)
	assert.True(t, m.Streaming)

	task.Status = chat.StatusCancelled
	notice := chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleSystem, Content: "Stopped by user", CreatedAt: time.Now()}
	task.Rev++
	changed, err := s.FinishTask(ctx, task, []chat.Message{notice})
	require.NoError(t, err)
	require.Len(t, changed.Messages, 1)
	assert.Equal(t, "Stopped by user", changed.Messages[0].Content)
	require.Len(t, changed.Ended, 1)
	ended := changed.Ended[0]
	assert.Equal(t, m.ID, ended.Message.ID)
	assert.False(t, ended.Message.Streaming)
	assert.Equal(t, 3, ended.Message.Rev)
	assert.Equal(t, len("Hello, wörld"), ended.ContentBytes, "its length in bytes, as Go counts them")
	assert.Empty(t, ended.Message.Content, "the text is not read again: it was streamed")

	view, err := s.LoadConversation(ctx, c.ID)
	require.NoError(t, err)
	require.Len(t, view.Messages, 3)
	assert.Equal(t, []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleSystem},
		[]chat.Role{view.Messages[0].Role, view.Messages[1].Role, view.Messages[2].Role})
	assert.Equal(t, "Hello, wörld", view.Messages[1].Content, "the stopped reply keeps the text streamed")
	view.Messages[1].Content = ""
	assert.Equal(t, ended.Message, view.Messages[1], "the event copy is the stored copy without its text")
	assert.Nil(t, view.ActiveTask)
	require.Len(t, view.Tasks, 1)
	assert.Equal(t, chat.StatusCancelled, view.Tasks[0].Status)
}

func TestTaskRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	task.Status = chat.StatusWaitingUser
	task.StepCount = 3
	task.PendingQuestion = "Which one?"
	task.PendingChoices = []string{"A", "B"}
	task.Usage = chat.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CacheReadTokens: 4, CacheWriteTokens: 3}
	task.Rev++
	require.NoError(t, s.UpdateTask(ctx, task))
	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	task.StartedAt = task.StartedAt.Truncate(time.Millisecond)
	assert.Equal(t, task, got)

	list, err := s.ListConversations(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.NotNil(t, list[0].ActiveTask)
	assert.Equal(t, "Which one?", list[0].ActiveTask.PendingQuestion)
}

func TestListOrdersByActivityAndDeleteCascades(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	a := newConversation(t, s)
	b := newConversation(t, s)
	task, prompt := newTask(a.ID, "bump a")
	prompt.CreatedAt = time.Now().Add(time.Minute)
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	list, err := s.ListConversations(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, a.ID, list[0].ID)
	assert.Equal(t, b.ID, list[1].ID)

	require.NoError(t, s.DeleteConversation(ctx, a.ID))
	_, err = s.GetTask(ctx, task.ID)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	msgs, err := s.Messages(ctx, a.ID)
	require.NoError(t, err)
	assert.Empty(t, msgs)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(s.DeleteConversation(ctx, a.ID)))
}

func TestRenameAndMode(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	got, err := s.RenameConversation(ctx, c.ID, "Trip")
	require.NoError(t, err)
	assert.Equal(t, "Trip", got.Title)
	assert.True(t, got.TitleSet)
	got, err = s.SetMode(ctx, c.ID, chat.ModeChat)
	require.NoError(t, err)
	assert.Equal(t, chat.ModeChat, got.Mode)
	_, err = s.SetMode(ctx, c.ID, "sometimes")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "an unknown mode is refused")
	got, err = s.GetConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.ModeChat, got.Mode, "and changes nothing")

	// A renamed conversation keeps its title when a task starts.
	task, prompt := newTask(c.ID, "something else")
	_, err = s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	got, _ = s.GetConversation(ctx, c.ID)
	assert.Equal(t, "Trip", got.Title)

	_, err = s.RenameConversation(ctx, "missing", "x")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
}

func TestAStaleTaskUpdateIsRefused(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hi")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	fresh := task
	fresh.Rev = 2
	fresh.StepCount = 1
	require.NoError(t, s.UpdateTask(ctx, fresh))
	stale := task
	stale.Rev = 2 // made from the first copy
	stale.StepCount = 7
	err = s.UpdateTask(ctx, stale)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, got.StepCount)
	assert.Equal(t, int64(2), got.Rev)
}
