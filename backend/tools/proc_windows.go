//go:build windows

package tools

import (
	"os/exec"
	"strconv"
)

func shell() string     { return "cmd" }
func shellFlag() string { return "/C" }

func ownProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the command's whole process tree.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
}
