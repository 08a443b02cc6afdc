//go:build !windows

package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/errand-app/errand/backend/chat"
)

// lockDataDir makes this process the only Errand writing to dir: a second
// launch on the same data finds the lock held and says so, instead of
// opening a second writer. The lock goes with the process, even on a crash.
func lockDataDir(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "errand.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock data directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrAlreadyRunning(dir)
		}
		return nil, fmt.Errorf("lock data directory: %w", err)
	}
	return func() {
		// Unlocked before the close: a child process forked at this moment
		// (an MCP server, a command) holds the same open file until its
		// exec, and with a close alone the lock would stay with it.
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// ErrAlreadyRunning says that another Errand uses the data directory.
func ErrAlreadyRunning(dir string) error {
	return chat.Errorf(chat.CodeConflict, "Errand is already running with the data folder %s. Switch to its window.", dir)
}
