package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// testdata/errand-v1.db was written by the first schema: a conversation
// with one completed task.
func TestOlderSchemaFileIsMigrated(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/errand-v1.db")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, src, 0o600))

	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	defer s.Close()
	var version int
	require.NoError(t, s.db.QueryRow("PRAGMA user_version").Scan(&version))
	assert.Equal(t, SchemaVersion(), version)

	ctx := context.Background()
	view, err := s.LoadConversation(ctx, "conv-1")
	require.NoError(t, err)
	assert.Equal(t, "Plan a trip", view.Conversation.Title)
	assert.Empty(t, view.Conversation.Workspace, "new columns take their defaults")
	require.Len(t, view.Messages, 3)
	assert.Equal(t, "call_1", view.Messages[1].ToolCalls[0].ID)
	require.Len(t, view.Tasks, 1)
	assert.Equal(t, chat.StatusCompleted, view.Tasks[0].Status)
	assert.Equal(t, int64(160), view.Tasks[0].Usage.TotalTokens)

	// And it keeps working.
	task, prompt := newTask("conv-1", "Another one")
	_, err = s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
}

func TestDamagedFileIsRefusedClearly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("not a database ", 500)), 0o600))
	_, err := Open(context.Background(), path)
	require.Error(t, err)
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "damaged")
	assert.Contains(t, chat.ErrorMessage(err), path)
	var se *sqlite.Error
	require.True(t, errors.As(err, &se), "the driver's error stays in the chain")
	assert.Contains(t, []int{sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT}, se.Code()&0xff)
	b, _ := os.ReadFile(path)
	assert.True(t, strings.HasPrefix(string(b), "not a database"), "the file is left as it was")
}

func TestReadOnlyDatabaseReadsAndRefusesWrites(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hello")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	ro, err := OpenReadOnly(ctx, path)
	require.NoError(t, err)
	defer ro.Close()
	assert.True(t, ro.ReadOnly())
	view, err := ro.LoadConversation(ctx, c.ID)
	require.NoError(t, err)
	assert.Len(t, view.Messages, 1)
	list, err := ro.ListConversations(ctx)
	require.NoError(t, err)
	assert.Len(t, list, 1)

	_, err = ro.RenameConversation(ctx, c.ID, "x")
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "read-only")
	_, err = ro.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleUser, Content: "x", CreatedAt: time.Now()})
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(err))
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(ro.SaveSettings(ctx, chat.DefaultSettings())))
}

// A full disk is simulated the way SQLite sees one: the file may not grow.
func TestFullDiskLeavesNoHalfWrittenMessage(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "hello")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	var pages int
	require.NoError(t, s.db.QueryRow("PRAGMA page_count").Scan(&pages))
	// max_page_count is per connection: hold one connection for the test.
	s.db.SetMaxOpenConns(1)
	_, err = s.db.Exec("PRAGMA max_page_count = " + itoa(pages))
	require.NoError(t, err)

	big := strings.Repeat("x", 1<<20)
	closing := []chat.Message{
		{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID, Role: chat.RoleAssistant, Content: big, CreatedAt: time.Now()},
		{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID, Role: chat.RoleSystem, Content: "Stopped", CreatedAt: time.Now()},
	}
	task.Status = chat.StatusCancelled
	task.Rev++
	_, err = s.FinishTask(ctx, task, closing)
	require.Error(t, err)
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "the disk is full")
	var se *sqlite.Error
	require.True(t, errors.As(err, &se), "the driver's error stays in the chain")
	assert.Equal(t, sqlite3.SQLITE_FULL, se.Code()&0xff)
	assert.Contains(t, chat.Details(err), se.Error(), "the log gets the driver's words")

	msgs, err := s.Messages(ctx, c.ID)
	require.NoError(t, err, "reading still works")
	assert.Len(t, msgs, 1, "neither message of the failed transaction was kept")
	got, err := s.GetTask(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StatusRunning, got.Status, "nor the task's new state")
}

// SQLite's own refusal to write (not the store's check before it) is
// told by its code and keeps the driver's error.
func TestSQLiteReadOnlyRefusalIsClassifiedByItsCode(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	require.NoError(t, s.Close())
	ro, err := OpenReadOnly(context.Background(), path)
	require.NoError(t, err)
	defer ro.Close()

	_, err = ro.db.Exec("DELETE FROM conversations")
	require.Error(t, err)
	assert.True(t, isReadOnly(err))
	err = ro.classify("save", err)
	assert.Equal(t, chat.CodeStorage, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "the database is read-only")
	var se *sqlite.Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, sqlite3.SQLITE_READONLY, se.Code()&0xff)

	assert.False(t, isReadOnly(errors.New("attempt to write a readonly database")), "text alone says nothing")
	assert.False(t, isReadOnly(nil))
}

// An update that would make a second active task in a conversation is
// refused by the database's unique index, told as a conflict.
func TestASecondActiveTaskByUpdateIsAConflict(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	first, prompt := newTask(c.ID, "first")
	_, err := s.StartTask(ctx, first, prompt)
	require.NoError(t, err)
	first.Status = chat.StatusCompleted
	first.Rev++
	_, err = s.FinishTask(ctx, first, nil)
	require.NoError(t, err)
	second, prompt := newTask(c.ID, "second")
	_, err = s.StartTask(ctx, second, prompt)
	require.NoError(t, err)

	first.Status = chat.StatusRunning
	first.Rev++
	err = s.UpdateTask(ctx, first)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "already has a task in progress")
	var se *sqlite.Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, sqlite3.SQLITE_CONSTRAINT_UNIQUE, se.Code())
}

func itoa(n int) string { return strconv.Itoa(n) }
