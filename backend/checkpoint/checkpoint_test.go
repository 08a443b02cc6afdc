package checkpoint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
	"github.com/errand-app/errand/backend/store"
)

type fixture struct {
	t     testing.TB
	ctx   context.Context
	store *store.Store
	conv  string
	ws    string
	k     *checkpoint.Keeper
}

func newFixture(t testing.TB, opts checkpoint.Options) *fixture {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := store.Open(ctx, filepath.Join(dir, "errand.db"))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, s.CreateConversation(ctx, c))
	k, err := checkpoint.New(filepath.Join(dir, "checkpoints"), s, opts)
	require.NoError(t, err)
	ws := filepath.Join(dir, "workspace")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	return &fixture{t: t, ctx: ctx, store: s, conv: c.ID, ws: ws, k: k}
}

// task starts a task in the conversation and ends it, as each test's
// changes belong to one.
func (f *fixture) task() string {
	now := time.Now().UTC()
	task := chat.Task{ID: uuid.NewString(), ConversationID: f.conv, Mode: chat.ModeAgent,
		Status: chat.StatusRunning, OriginalPrompt: "work", StartedAt: now, Rev: 1}
	msg := chat.Message{ID: uuid.NewString(), ConversationID: f.conv, TaskID: task.ID, Role: chat.RoleUser, Content: "work", CreatedAt: now}
	_, err := f.store.StartTask(f.ctx, task, msg)
	require.NoError(f.t, err)
	task.Status, task.Rev = chat.StatusCompleted, 2
	err = f.store.UpdateTask(f.ctx, task)
	require.NoError(f.t, err)
	return task.ID
}

func (f *fixture) write(rel, content string) {
	p := filepath.Join(f.ws, rel)
	require.NoError(f.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(f.t, os.WriteFile(p, []byte(content), 0o644))
}

func (f *fixture) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(f.ws, rel))
	if os.IsNotExist(err) {
		return "<absent>"
	}
	require.NoError(f.t, err)
	return string(b)
}

// tool runs change the way a file tool does: before-image, change, after-image.
func (f *fixture) tool(taskID, rel string, change func()) {
	require.NoError(f.t, f.k.BeforeWrite(f.ctx, taskID, f.ws, rel))
	change()
	require.NoError(f.t, f.k.AfterWrite(f.ctx, taskID, f.ws, rel))
}

func (f *fixture) state(rels ...string) []string {
	var out []string
	for _, r := range rels {
		out = append(out, f.read(r))
	}
	return out
}

func TestUndoAndRedoWriteEditAndDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t, checkpoint.Defaults)
	f.write("edit.txt", "old")
	f.write("gone.txt", "keep me")
	id := f.task()
	f.tool(id, "new.txt", func() { f.write("new.txt", "fresh") })
	f.tool(id, "edit.txt", func() { f.write("edit.txt", "new") })
	f.tool(id, "edit.txt", func() { f.write("edit.txt", "newer") })
	f.tool(id, "gone.txt", func() { require.NoError(t, os.Remove(filepath.Join(f.ws, "gone.txt"))) })
	f.tool(id, "same.txt", func() {}) // a failed write changes nothing

	cp, err := f.store.Checkpoint(f.ctx, id)
	require.NoError(t, err)
	var changed []string
	for _, c := range cp.Files {
		if c.Changed() {
			changed = append(changed, c.Path)
		}
	}
	assert.Equal(t, []string{"edit.txt", "gone.txt", "new.txt"}, changed)

	files := []string{"new.txt", "edit.txt", "gone.txt"}
	after := []string{"fresh", "newer", "<absent>"}
	before := []string{"<absent>", "old", "keep me"}
	for round := 0; round < 2; round++ { // undo can be undone, and done again
		out, err := f.k.Undo(f.ctx, id, nil)
		require.NoError(t, err)
		assert.Len(t, out.Restored, 3)
		assert.Equal(t, before, f.state(files...), "round %d: undo restores the state before the task", round)
		_, err = f.k.Undo(f.ctx, id, nil)
		assert.ErrorContains(t, err, "already undone")

		_, err = f.k.Redo(f.ctx, id, nil)
		require.NoError(t, err)
		assert.Equal(t, after, f.state(files...), "round %d: redo puts the task's changes back", round)
	}
	_, err = f.k.Redo(f.ctx, id, nil)
	assert.ErrorContains(t, err, "nothing to redo")
}

func TestACommandsChangesAreFoundAndUndone(t *testing.T) {
	t.Parallel()
	f := newFixture(t, checkpoint.Defaults)
	f.write("src/main.go", "package main")
	f.write("src/old.go", "package old")
	f.write("README.md", "read me")
	f.write("node_modules/dep/index.js", "v1")
	f.write(".git/HEAD", "ref: main")
	id := f.task()

	snap, err := f.k.Snapshot(f.ctx, f.ws)
	require.NoError(t, err)
	assert.Len(t, snap.Files, 3, "excluded folders are not kept")
	// The command: edit one file, delete one, create one, touch the excluded.
	f.write("src/main.go", "package main // edited")
	require.NoError(t, os.Remove(filepath.Join(f.ws, "src/old.go")))
	f.write("build/out.txt", "built")
	f.write("node_modules/dep/index.js", "v2")
	rec, err := f.k.Record(f.ctx, id, snap)
	require.NoError(t, err)
	assert.Equal(t, 3, rec.Changed)

	_, err = f.k.Undo(f.ctx, id, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"package main", "package old", "<absent>", "read me", "v2"},
		f.state("src/main.go", "src/old.go", "build/out.txt", "README.md", "node_modules/dep/index.js"))
}

func TestAFileChangedSinceTheTaskIsAConflict(t *testing.T) {
	t.Parallel()
	f := newFixture(t, checkpoint.Defaults)
	f.write("a.txt", "a0")
	f.write("b.txt", "b0")
	id := f.task()
	f.tool(id, "a.txt", func() { f.write("a.txt", "a1") })
	f.tool(id, "b.txt", func() { f.write("b.txt", "b1") })
	f.write("b.txt", "b2 by the person")

	out, err := f.k.Undo(f.ctx, id, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"b.txt"}, out.Conflicts)
	assert.Equal(t, []string{"a1", "b2 by the person"}, f.state("a.txt", "b.txt"), "a conflict changes nothing")

	out, err = f.k.Undo(f.ctx, id, map[string]chat.FileChoice{"b.txt": chat.KeepCurrent})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, out.Restored)
	assert.Equal(t, []string{"b.txt"}, out.Kept)
	assert.Equal(t, []string{"a0", "b2 by the person"}, f.state("a.txt", "b.txt"))

	g := newFixture(t, checkpoint.Defaults)
	g.write("b.txt", "b0")
	id = g.task()
	g.tool(id, "b.txt", func() { g.write("b.txt", "b1") })
	g.write("b.txt", "b2 by the person")
	_, err = g.k.Undo(g.ctx, id, map[string]chat.FileChoice{"b.txt": chat.RestoreFile})
	require.NoError(t, err)
	assert.Equal(t, "b0", g.read("b.txt"), "restore puts back the task's before-state")
}

func TestAnUndoThatCannotWriteChangesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, checkpoint.Defaults)
	f.write("a.txt", "a0")
	f.write("x", "x0")
	id := f.task()
	f.tool(id, "a.txt", func() { f.write("a.txt", "a1") })
	f.tool(id, "x", func() { require.NoError(t, os.Remove(filepath.Join(f.ws, "x"))) })
	// Something the undo cannot write over now stands where x was.
	require.NoError(t, os.MkdirAll(filepath.Join(f.ws, "x", "inside"), 0o755))

	_, err := f.k.Undo(f.ctx, id, map[string]chat.FileChoice{"x": chat.RestoreFile})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nothing was changed")
	assert.Equal(t, "a1", f.read("a.txt"), "the file put back first is returned to what it was")
	cp, err := f.store.Checkpoint(f.ctx, id)
	require.NoError(t, err)
	assert.False(t, cp.Undone)

	require.NoError(t, os.RemoveAll(f.ws))
	_, err = f.k.Undo(f.ctx, id, nil)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "is gone")
}

func TestCheckpointsArePrunedOldestFirstAndContentIsKeptOnce(t *testing.T) {
	t.Parallel()
	opts := checkpoint.Defaults
	opts.MaxBytes = 2500
	f := newFixture(t, opts)
	big := func(c byte) string { return string(make([]byte, 1000)) + string(c) }

	first := f.task()
	f.write("same1.txt", big('s'))
	f.write("same2.txt", big('s'))
	f.tool(first, "same1.txt", func() { f.write("same1.txt", "x") })
	f.tool(first, "same2.txt", func() { f.write("same2.txt", "x") })
	assert.Equal(t, int64(1001+1), f.k.Size(), "the same content is kept once")

	second := f.task()
	f.write("b.txt", big('b'))
	f.tool(second, "b.txt", func() { f.write("b.txt", big('c')) })
	assert.LessOrEqual(t, f.k.Size(), opts.MaxBytes)

	_, err := f.k.Undo(f.ctx, first, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "no longer kept")
	_, err = f.k.Undo(f.ctx, second, nil)
	require.NoError(t, err)
	assert.Equal(t, big('b'), f.read("b.txt"))
}

func TestAPathOutsideTheWorkspaceIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, checkpoint.Defaults)
	id := f.task()
	err := f.k.BeforeWrite(f.ctx, id, f.ws, "../escape.txt")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
}

func TestASnapshotKeepsNoMoreThanTheStorageLimit(t *testing.T) {
	t.Parallel()
	opts := checkpoint.Defaults
	opts.MaxBytes = 2500
	f := newFixture(t, opts)
	for i := range 10 {
		f.write(fmt.Sprintf("f%02d.txt", i), fmt.Sprintf("%01000d", i))
	}
	id := f.task()
	snap, err := f.k.Snapshot(f.ctx, f.ws)
	require.NoError(t, err)
	assert.Len(t, snap.Files, 2, "kept while they fit the limit")
	assert.Len(t, snap.Skipped, 8)
	f.write("f00.txt", "changed")
	rec, err := f.k.Record(f.ctx, id, snap)
	require.NoError(t, err)
	assert.Equal(t, 1, rec.Changed)
	assert.Len(t, rec.Unkept, 8, "the files not kept are named")
	assert.LessOrEqual(t, f.k.Size(), opts.MaxBytes)
	_, err = f.k.Undo(f.ctx, id, nil)
	require.NoError(t, err, "the checkpoint was not pruned to make room for itself")
	assert.Equal(t, fmt.Sprintf("%01000d", 0), f.read("f00.txt"))
}
