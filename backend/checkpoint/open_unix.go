//go:build !windows

package checkpoint

import "syscall"

// openNoBlock opens a named pipe put in a file's place without waiting for
// its other end (it is then refused as not a regular file).
const openNoBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY
