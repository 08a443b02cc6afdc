//go:build !windows

package attach_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddPathRefusesWhatIsNotAFileUnread(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	require.NoError(t, os.WriteFile(target, []byte("hello"), 0o600))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(target, link))
	fifo := filepath.Join(dir, "pipe.txt")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	huge := filepath.Join(dir, "huge.log")
	h, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, h.Truncate(2<<30)) // 2 GB, sparse: refused by its size, never read
	require.NoError(t, h.Close())

	for path, says := range map[string]string{
		link: "symbolic link", fifo: "named pipe", dir: "folder", huge: "2.0 GB",
		filepath.Join(dir, "missing.txt"): "cannot be read",
	} {
		f := newFixture(t)
		_, err := f.files.AddPath(context.Background(), path)
		require.Error(t, err, path)
		assert.Contains(t, err.Error(), says)
		assert.Empty(t, f.kept())
		assert.Zero(t, f.rows())
	}

	f := newFixture(t)
	a, err := f.files.AddPath(context.Background(), target)
	require.NoError(t, err)
	assert.Equal(t, "real.txt", a.Name)
}
