//go:build !windows

package tools

import "syscall"

// openNoBlock opens a named pipe without waiting for its other end, and a
// terminal without making it the app's own.
const openNoBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY
