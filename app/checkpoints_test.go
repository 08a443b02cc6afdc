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

// checkpointService is the service over a real store and keeper, with one
// task that changed a.txt in ws from "before" to "after" (and is still
// running) and read, which reads a.txt.
type checkpointService struct {
	svc    *Checkpoints
	st     *store.Store
	events *publishedChanges
	task   chat.Task
	ws     string
	read   func() string
}

func newCheckpointService(t *testing.T, opts ...func(*chat.Settings)) checkpointService {
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
	return checkpointService{svc: svc, st: st, events: events, task: task, ws: ws, read: read}
}

// ended stores the service's task as completed.
func (c *checkpointService) ended(t *testing.T) {
	c.task.Status, c.task.Rev = chat.StatusCompleted, c.task.Rev+1
	require.NoError(t, c.st.UpdateTask(context.Background(), c.task))
}

func TestUndoChangesThroughTheService(t *testing.T) {
	t.Parallel()
	c := newCheckpointService(t)
	svc, events, task, ws, read := c.svc, c.events, c.task, c.ws, c.read

	_, err := svc.UndoChanges(task.ID, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "still working")
	assert.Equal(t, "after", read(), "a running task's changes are not undone under it")

	c.ended(t)
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

// The card is dismissed for good; a task with no checkpoint, or a pruned
// one, cannot be dismissed or undone: a clear error, and nothing changes.
func TestDismissingOrUndoingAnUnknownOrPrunedCheckpointIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCheckpointService(t)
	c.ended(t)

	for _, id := range []string{"no-such-task", uuid.NewString()} {
		assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(c.svc.DismissChanges(id)), "dismiss %s", id)
		_, err := c.svc.UndoChanges(id, nil)
		assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "undo %s", id)
	}
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(c.svc.DismissChanges("")))

	// Pruned: the task's contents are gone past the storage limit.
	_, ok, err := c.st.PruneOldestCheckpoint(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	err = c.svc.DismissChanges(c.task.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "no longer kept")
	_, err = c.svc.UndoChanges(c.task.ID, nil)
	assert.ErrorContains(t, err, "no longer kept")
	changed, err := c.svc.FilesChanged(c.task.ID)
	require.NoError(t, err)
	assert.False(t, changed.Dismissed)
	assert.False(t, changed.Undone)
	assert.Equal(t, "after", c.read())
	assert.Empty(t, c.events.events, "nothing was published")
}

func TestADismissedCardStaysDismissedAndItsFilesAsTheyAre(t *testing.T) {
	t.Parallel()
	c := newCheckpointService(t)
	c.ended(t)
	require.NoError(t, c.svc.DismissChanges(c.task.ID))
	require.Len(t, c.events.events, 1)
	assert.True(t, c.events.events[0].Dismissed, "the card is told")
	changed, err := c.svc.FilesChanged(c.task.ID)
	require.NoError(t, err)
	assert.True(t, changed.Dismissed)
	assert.Equal(t, "after", c.read(), "dismissing changes no file")
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
