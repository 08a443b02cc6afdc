//go:build !windows

package checkpoint_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
)

// home is a folder outside the workspace with the person's files in it.
func home(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".bashrc"), []byte("my shell settings"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("my notes"), 0o644))
	return dir
}

func assertUntouched(t *testing.T, dir string) {
	t.Helper()
	for name, want := range map[string]string{".bashrc": "my shell settings", "notes.txt": "my notes"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s is gone", name)
		assert.Equal(t, want, string(b))
	}
}

// Two harmless-looking commands (mkdir sub …, then rm -rf sub && ln -s
// $HOME sub) must not make the diff show the home folder's files, nor the
// undo delete them: a path under a folder that became a link is a
// conflict, never followed.
func TestUndoAfterALinkSwapStaysInTheWorkspace(t *testing.T) {
	outside := home(t)
	f := newFixture(t, checkpoint.Defaults)
	id := f.task()
	command := func(run func()) {
		snap, err := f.k.Snapshot(f.ctx, f.ws)
		require.NoError(t, err)
		run()
		_, err = f.k.Record(f.ctx, id, snap)
		require.NoError(t, err)
	}
	command(func() { f.write("sub/.bashrc", "x"); f.write("sub/notes.txt", "y") })
	command(func() {
		require.NoError(t, os.RemoveAll(filepath.Join(f.ws, "sub")))
		require.NoError(t, os.Symlink(outside, filepath.Join(f.ws, "sub")))
	})

	for _, p := range []string{"sub/.bashrc", "sub/notes.txt"} {
		diff, err := f.k.Diff(f.ctx, id, p)
		if err == nil {
			assert.NotContains(t, diff, "my ", "the diff shows a file outside the workspace")
		}
	}
	out, err := f.k.Undo(f.ctx, id, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"sub/.bashrc", "sub/notes.txt"}, out.Conflicts)
	assertUntouched(t, outside)

	restore := map[string]chat.FileChoice{"sub/.bashrc": chat.RestoreFile, "sub/notes.txt": chat.RestoreFile}
	_, err = f.k.Undo(f.ctx, id, restore)
	assert.ErrorContains(t, err, "nothing was changed")
	assertUntouched(t, outside)

	keep := map[string]chat.FileChoice{"sub/.bashrc": chat.KeepCurrent, "sub/notes.txt": chat.KeepCurrent}
	out, err = f.k.Undo(f.ctx, id, keep)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"sub/.bashrc", "sub/notes.txt"}, out.Kept)
	assertUntouched(t, outside)
	_, err = f.k.Redo(f.ctx, id, nil)
	require.NoError(t, err)
	assertUntouched(t, outside)
}

// A write through a folder link that leads outside copies nothing of the
// outside file into the checkpoints.
func TestABeforeImageIsNeverTakenThroughALink(t *testing.T) {
	outside := home(t)
	f := newFixture(t, checkpoint.Defaults)
	require.NoError(t, os.Symlink(outside, filepath.Join(f.ws, "link")))
	id := f.task()
	_ = f.k.BeforeWrite(f.ctx, id, f.ws, "link/.bashrc")
	assert.Zero(t, f.k.Size(), "the outside file was copied into the checkpoints")
	snap, err := f.k.Snapshot(f.ctx, f.ws)
	require.NoError(t, err)
	assert.Empty(t, snap.Files)
	assert.Zero(t, f.k.Size())
}

// A file changed between the undo's look and its write is not
// overwritten: the undo stops with a conflict and changes nothing.
func TestUndoLooksAgainAsItWrites(t *testing.T) {
	f := newFixture(t, checkpoint.Defaults)
	f.write("a.txt", "a0")
	f.write("b.txt", "b0")
	id := f.task()
	f.tool(id, "a.txt", func() { f.write("a.txt", "a1") })
	f.tool(id, "b.txt", func() { f.write("b.txt", "b1") })

	defer checkpoint.SetBeforeWrite(func(rel string) {
		if rel == "b.txt" {
			f.write("b.txt", "the person's edit")
		}
	})()
	_, err := f.k.Undo(f.ctx, id, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "nothing was changed")
	assert.Equal(t, []string{"a1", "the person's edit"}, f.state("a.txt", "b.txt"))
}

// A file rewritten with the same size and its modification time put back
// is still seen as changed since the task.
func TestAnEditThatKeepsSizeAndTimeIsAConflict(t *testing.T) {
	f := newFixture(t, checkpoint.Defaults)
	f.write("a.txt", "a0")
	id := f.task()
	f.tool(id, "a.txt", func() { f.write("a.txt", "a1") })
	p := filepath.Join(f.ws, "a.txt")
	info, err := os.Stat(p)
	require.NoError(t, err)
	f.write("a.txt", "zz")
	require.NoError(t, os.Chtimes(p, time.Time{}, info.ModTime()))

	out, err := f.k.Undo(f.ctx, id, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, out.Conflicts)
	assert.Equal(t, "zz", f.read("a.txt"))
}

// A file larger than the checkpoints may hold is refused before a byte of
// it is copied (a sparse 1 GB file under a 100 MB limit), and no earlier
// checkpoint is pruned for it.
func TestAFileOverTheLimitIsRefusedBeforeItIsCopied(t *testing.T) {
	opts := checkpoint.Defaults
	opts.MaxBytes = 100 << 20
	f := newFixture(t, opts)
	f.write("small.txt", "s0")
	first := f.task()
	f.tool(first, "small.txt", func() { f.write("small.txt", "s1") })
	kept := f.k.Size()

	sparse, err := os.Create(filepath.Join(f.ws, "huge.bin"))
	require.NoError(t, err)
	require.NoError(t, sparse.Truncate(1<<30))
	require.NoError(t, sparse.Close())
	id := f.task()
	err = f.k.BeforeWrite(f.ctx, id, f.ws, "huge.bin")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than the 100.0 MB")
	assert.Equal(t, kept, f.k.Size(), "nothing of it was copied")
	_, err = f.k.Undo(f.ctx, first, nil)
	require.NoError(t, err, "the earlier checkpoint is still there")
	assert.Equal(t, "s0", f.read("small.txt"))
}
