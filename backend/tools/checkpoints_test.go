package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordedCheckpoints notes what the tools asked to keep, and what the
// file held at each point.
type recordedCheckpoints struct {
	dir      string
	calls    []string
	afterErr error
	cmdErr   error
}

func (r *recordedCheckpoints) BeforeWrite(_ context.Context, rel string) error {
	r.calls = append(r.calls, "before "+rel+" = "+r.read(rel))
	return nil
}

func (r *recordedCheckpoints) AfterWrite(_ context.Context, rel string) error {
	r.calls = append(r.calls, "after "+rel+" = "+r.read(rel))
	return r.afterErr
}

func (r *recordedCheckpoints) BeforeCommand(context.Context) (func(context.Context) (string, error), error) {
	if r.cmdErr != nil {
		return nil, r.cmdErr
	}
	r.calls = append(r.calls, "snapshot = "+r.read("out.txt"))
	return func(ctx context.Context) (string, error) {
		r.calls = append(r.calls, "record = "+r.read("out.txt"))
		return "big.bin could not be kept", ctx.Err()
	}, nil
}

func (r *recordedCheckpoints) NotUndoable(_ context.Context, tool string) error {
	r.calls = append(r.calls, "not undoable "+tool)
	return nil
}

func (r *recordedCheckpoints) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(r.dir, rel))
	if err != nil {
		return "<absent>"
	}
	return string(b)
}

func TestFileToolsKeepTheFileAroundTheirChange(t *testing.T) {
	w, env := newWorkspace(t)
	rec := &recordedCheckpoints{dir: w.Dir()}
	env.Checkpoints = rec
	put(t, w.Dir(), "notes/a.txt", "one")

	_, err := call(t, WriteFile{}, env, map[string]any{"path": "./notes/../notes/a.txt", "content": "two"})
	require.NoError(t, err)
	_, err = call(t, EditFile{}, env, map[string]any{"path": "notes/a.txt", "old_text": "two", "new_text": "three"})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"before notes/a.txt = one", "after notes/a.txt = two",
		"before notes/a.txt = two", "after notes/a.txt = three",
	}, rec.calls, "the path is the workspace-relative one, cleaned")

	rec.afterErr = errors.New("disk full")
	res, err := call(t, WriteFile{}, env, map[string]any{"path": "notes/a.txt", "content": "four"})
	require.NoError(t, err)
	assert.False(t, res.IsError, "the write happened")
	assert.Contains(t, res.Content, "Undo changes will not restore this file (disk full)")
}

func TestACommandRunsBetweenASnapshotAndItsRecord(t *testing.T) {
	w, env := newWorkspace(t)
	rec := &recordedCheckpoints{dir: w.Dir()}
	env.Checkpoints = rec
	res, err := call(t, RunCommand{}, env, map[string]any{"command": "echo made > out.txt; exit 3"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, []string{"snapshot = <absent>", "record = made\n"}, rec.calls, "a failed command's changes are recorded too")
	assert.Contains(t, res.Content, "Note: big.bin could not be kept")

	rec.cmdErr = errors.New("no space left")
	res, err = call(t, RunCommand{}, env, map[string]any{"command": "echo again > out.txt"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "the command was not run")
	assert.Equal(t, "made\n", rec.read("out.txt"))
}
