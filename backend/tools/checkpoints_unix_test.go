//go:build !windows

package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A write through a folder link that leads outside is refused before its
// checkpoint reads anything there; one through a link inside keeps the
// file the write lands in.
func TestAWriteThroughALinkKeepsTheFileItLandsIn(t *testing.T) {
	w, env := newWorkspace(t)
	rec := &recordedCheckpoints{dir: w.Dir()}
	env.Checkpoints = rec
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, ".bashrc"), []byte("mine"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(w.Dir(), "out")))
	put(t, w.Dir(), "real/a.txt", "one")
	require.NoError(t, os.Symlink("real", filepath.Join(w.Dir(), "in")))

	res, err := call(t, WriteFile{}, env, map[string]any{"path": "out/.bashrc", "content": "gone"})
	if err == nil {
		assert.True(t, res.IsError)
		err = errors.New(res.Content)
	}
	assert.Contains(t, err.Error(), "outside the workspace")
	assert.Empty(t, rec.calls, "nothing outside was read for a checkpoint")
	b, _ := os.ReadFile(filepath.Join(outside, ".bashrc"))
	assert.Equal(t, "mine", string(b))

	_, err = call(t, WriteFile{}, env, map[string]any{"path": "in/a.txt", "content": "two"})
	require.NoError(t, err)
	assert.Equal(t, []string{"before real/a.txt = one", "after real/a.txt = two"}, rec.calls)
}
