package app

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A second lock of the same folder is refused; once released, the folder
// can be locked again even while another descriptor of the same open file
// remains, as a child process forked at that moment holds one until its
// exec (a parallel test's MCP server starting made a reopen fail so).
func TestTheDataFolderLockIsFreedEvenWhileAForkedChildHoldsItsFile(t *testing.T) {
	dir := t.TempDir()
	release, err := lockDataDir(dir)
	require.NoError(t, err)
	_, err = lockDataDir(dir)
	assert.ErrorContains(t, err, "already running")

	held, err := syscall.Dup(lockFD(t, filepath.Join(dir, "errand.lock")))
	require.NoError(t, err)
	defer syscall.Close(held)

	release()
	again, err := lockDataDir(dir)
	require.NoError(t, err, "the folder is free once Errand released it")
	again()
}

// lockFD finds this process's descriptor of the lock file.
func lockFD(t *testing.T, path string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && target == path {
			fd, err := strconv.Atoi(e.Name())
			require.NoError(t, err)
			return fd
		}
	}
	t.Fatalf("no descriptor of %s", path)
	return -1
}
