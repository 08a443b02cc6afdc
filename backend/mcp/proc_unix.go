//go:build !windows

package mcp

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the command in a process group of its own, so
// that it can be killed with everything it started.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
