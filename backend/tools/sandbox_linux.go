//go:build linux

package tools

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/secrets"
)

// On Linux run_command runs in a bubblewrap (bwrap) sandbox: the whole
// file system read-only but for the workspace and a private /tmp, its own
// process namespace (so that nothing it starts outlives it, setsid or not)
// and, unless the person allowed the network for the task, no network.

var sandbox struct {
	once  sync.Once
	bwrap string // the bwrap that works here, "" when none does
}

// SandboxAvailable reports whether commands run in the sandbox here: bwrap
// is installed and can make its namespaces (a container may forbid them).
// It is probed once.
func SandboxAvailable() bool {
	sandbox.once.Do(func() { sandbox.bwrap = probeSandbox() })
	return sandbox.bwrap != ""
}

// probeSandbox runs `true` in the sandbox and returns bwrap's path if it
// worked.
func probeSandbox() string {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return ""
	}
	dir, err := os.MkdirTemp("", "errand-sandbox-probe")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	probe := exec.CommandContext(ctx, path, append(sandboxArgs(dir, false), "--", "true")...)
	probe.Env = secrets.ChildEnv()
	if probe.Run() != nil {
		return ""
	}
	return path
}

// sandboxArgs are bwrap's options for a command in workspace. Order
// matters: the private /tmp comes before the workspace, which may lie
// under /tmp.
func sandboxArgs(workspace string, network bool) []string {
	args := []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
		"--bind", workspace, workspace,
		"--chdir", workspace,
		"--setenv", "TMPDIR", "/tmp",
		"--unshare-pid",
		"--die-with-parent",
	}
	if !network {
		args = append(args, "--unshare-net")
	}
	return args
}

// sandboxed returns argv wrapped to run in the sandbox.
func sandboxed(workspace string, network bool, argv []string) []string {
	return append(append([]string{sandbox.bwrap}, sandboxArgs(workspace, network)...), append([]string{"--"}, argv...)...)
}
