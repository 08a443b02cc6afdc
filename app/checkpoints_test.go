package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
)

// publishedChanges records checkpoint:filesChanged, checking that what
// it says is already stored.
type publishedChanges struct {
	t      *testing.T
	st     *store.Store
	events []chat.FilesChanged
}

func (p *publishedChanges) FilesChanged(c chat.FilesChanged) {
	cp, err := p.st.Checkpoint(context.Background(), c.TaskID)
	require.NoError(p.t, err)
	assert.Equal(p.t, cp.Undone, c.Undone, "published as stored")
	p.events = append(p.events, c)
}

func TestUndoChangesThroughTheService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	keeper, err := openKeeper(ctx, dir, st)
	require.NoError(t, err)
	events := &publishedChanges{t: t, st: st}
	svc := &Checkpoints{keeper: keeper, tasks: st, events: events}

	now := time.Now().UTC()
	conv := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, st.CreateConversation(ctx, conv))
	task := chat.Task{ID: uuid.NewString(), ConversationID: conv.ID, Mode: chat.ModeAgent,
		Status: chat.StatusRunning, OriginalPrompt: "work", StartedAt: now, Rev: 1}
	_, err = st.StartTask(ctx, task, chat.Message{ID: uuid.NewString(), ConversationID: conv.ID, TaskID: task.ID,
		Role: chat.RoleUser, Content: "work", CreatedAt: now})
	require.NoError(t, err)
	ws := filepath.Join(dir, "workspace")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	file := filepath.Join(ws, "a.txt")
	require.NoError(t, os.WriteFile(file, []byte("before"), 0o644))
	tk := keeper.ForTask(task.ID, ws)
	require.NoError(t, tk.BeforeWrite(ctx, "a.txt"))
	require.NoError(t, os.WriteFile(file, []byte("after"), 0o644))
	require.NoError(t, tk.AfterWrite(ctx, "a.txt"))
	read := func() string {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		return string(b)
	}

	_, err = svc.UndoChanges(task.ID, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "still working")
	assert.Equal(t, "after", read(), "a running task's changes are not undone under it")

	task.Status, task.Rev = chat.StatusCompleted, 2
	require.NoError(t, st.UpdateTask(ctx, task))
	_, err = svc.UndoChanges(task.ID, map[string]chat.FileChoice{"a.txt": "maybe"})
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = svc.UndoChanges("", nil)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Empty(t, events.events)

	out, err := svc.UndoChanges(task.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, out.Restored)
	assert.Equal(t, "before", read())
	require.Len(t, events.events, 1)
	assert.True(t, events.events[0].Undone)
	assert.Equal(t, []chat.ChangedFile{{Path: "a.txt", Change: "changed"}}, events.events[0].Files)
	diff, err := svc.FileDiff(task.ID, "a.txt")
	require.NoError(t, err)
	assert.Contains(t, diff, "-before")
	assert.Contains(t, diff, "+after")

	// The folder is gone: a clear error, nothing recorded, nothing published.
	require.NoError(t, os.RemoveAll(ws))
	_, err = svc.RedoChanges(task.ID, nil)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "is gone; nothing was changed")
	changed, err := svc.FilesChanged(task.ID)
	require.NoError(t, err)
	assert.True(t, changed.Undone)
	assert.Len(t, events.events, 1)
	assert.Positive(t, svc.Storage().UsedBytes)
	assert.Equal(t, int64(1024)<<20, svc.Storage().LimitBytes)
}

func TestCheckpointSettingsAreValidated(t *testing.T) {
	t.Parallel()
	st := chat.DefaultSettings()
	st.CheckpointLimitMB = 1
	assert.ErrorContains(t, validateSettings(st), "checkpoint storage limit")
	st = chat.DefaultSettings()
	st.CheckpointExclude = []string{"node_modules", "../up"}
	assert.ErrorContains(t, validateSettings(st), `not "../up"`)
}
