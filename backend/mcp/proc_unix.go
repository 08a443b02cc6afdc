//go:build !windows

package mcp

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// treeVar marks every process of a server's tree: it is in the server's
// environment, and so in that of everything it starts — also of a child
// that left the process group (setsid) or lost its parent.
const treeVar = "ERRAND_MCP_TREE"

var trees atomic.Uint64

// ownProcessGroup starts the command in a process group of its own, so
// that it can be killed with everything it started, and marks its tree.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d-%d", treeVar, os.Getpid(), trees.Add(1)))
}

// killProcessGroup kills the server's process group, then every process
// left that carries its tree's mark (where /proc tells).
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if mark := treeMark(cmd.Env); mark != "" {
		killMarked(mark)
	}
}

func treeMark(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], treeVar+"=") {
			return env[i]
		}
	}
	return ""
}

// killMarked kills every process whose environment holds mark.
func killMarked(mark string) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	want := append([]byte(mark), 0)
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err == nil && (bytes.Contains(env, append([]byte{0}, want...)) || bytes.HasPrefix(env, want)) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
