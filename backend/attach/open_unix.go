//go:build !windows

package attach

import "syscall"

// noFollow opens a path without following a symbolic link, and without
// waiting on a FIFO that took the file's place after it was looked at.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
