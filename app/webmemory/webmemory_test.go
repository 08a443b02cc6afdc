package webmemory

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each start installs the extension: the same copy stays as it is, and
// another (an older build's) is replaced whole, never written over in
// place while a web process may be loading it.
func TestTheExtensionIsWrittenOnlyWhenItChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "webmemory", libName)
	require.NoError(t, put(path, []byte("build one")))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "build one", string(got))

	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(path, old, old))
	require.NoError(t, put(path, []byte("build one")))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, info.ModTime().Equal(old), "the same copy is not written again")

	before, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, put(path, []byte("build two")))
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "build two", string(got))
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.False(t, os.SameFile(before, after), "a new file, renamed into place")
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "the folder holds the extension alone: WebKit loads every file in it")
}
