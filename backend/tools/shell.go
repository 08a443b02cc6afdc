package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/secrets"
)

// RunCommand runs a shell command in the workspace. The command gets its own
// process group, and the whole group — children, grandchildren — is killed
// when the command times out, when it finishes, and when the task stops.
// Where a sandbox is available (SandboxAvailable) the command runs in it:
// it can write only in the workspace and a private temporary folder, and
// reach the network only when Env.Network allows it. Its environment
// holds none of Errand's secrets (secrets.ChildEnv).
type RunCommand struct {
	// NoSandbox runs commands outside the sandbox even where there is one:
	// for measuring what the sandbox costs.
	NoSandbox bool
}

// Limits of run_command.
const (
	DefaultCommandTimeout = 60 * time.Second
	MaxCommandTimeout     = 10 * time.Minute
	MaxCommandOutput      = 64 << 10
)

func (RunCommand) Name() string { return "run_command" }
func (r RunCommand) Description() string {
	d := fmt.Sprintf("Run a shell command (bash -c) in the workspace folder and return its exit code and output (at most %d KiB, head and tail). Default timeout %s.", MaxCommandOutput>>10, DefaultCommandTimeout)
	if r.Sandboxed() {
		d += " It runs in a sandbox: it can write only in the workspace and /tmp, and has no network unless you set network to true (the user is asked once per task)."
	}
	return d
}
func (RunCommand) Risk() Risk { return RiskDestructive }
func (RunCommand) Schema() map[string]any {
	return Object(map[string]any{
		"command":         str("The command line."),
		"timeout_seconds": integer("Give up after this many seconds.", 1, int(MaxCommandTimeout/time.Second)),
		"network":         boolean("True if the command needs the network (downloads, package installs, git fetch)."),
	}, "command")
}

// Sandboxed reports whether its commands run in the sandbox here.
func (r RunCommand) Sandboxed() bool { return !r.NoSandbox && SandboxAvailable() }

// WantsNetwork reports whether a call asks for the network.
func (RunCommand) WantsNetwork(args json.RawMessage) bool {
	var a commandArgs
	return json.Unmarshal(args, &a) == nil && a.Network
}

type commandArgs struct {
	Command        string `json:"command"`
	TimeoutSeconds int    `json:"timeout_seconds"`
	Network        bool   `json:"network"`
}

func (r RunCommand) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var a commandArgs
	if err := decode(args, &a); err != nil {
		return errorResult("%v", err)
	}
	if strings.TrimSpace(a.Command) == "" {
		return errorResult("the command is empty")
	}
	if err := needWorkspace(env); err != nil {
		return errorResult("%v", err)
	}
	timeout := DefaultCommandTimeout
	if a.TimeoutSeconds > 0 {
		timeout = time.Duration(a.TimeoutSeconds) * time.Second
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	argv := []string{shell(), shellFlag(), a.Command}
	if r.Sandboxed() {
		argv = sandboxed(env.Workspace.Dir(), env.Network, argv)
	}
	return keptCommand(ctx, env, func() (Result, error) { return runShell(ctx, runCtx, env, argv, timeout) })
}

// runShell runs argv in the workspace until runCtx ends (ctx is the
// task's: its end is the caller's error).
func runShell(ctx, runCtx context.Context, env Env, argv []string, timeout time.Duration) (Result, error) {
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = env.Workspace.Dir()
	cmd.Env = secrets.ChildEnv()
	// The output goes through a pipe of our own, not one exec copies: Wait
	// then returns when the shell exits, even if a background child still
	// holds the pipe — and that child is killed with the group right after.
	pr, pw, err := os.Pipe()
	if err != nil {
		return errorResult("the command could not start: %v", err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	ownProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }

	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return errorResult("the command could not start: %v", err)
	}
	out := &capBuffer{max: MaxCommandOutput}
	copied := make(chan struct{})
	go func() {
		var w io.Writer = out
		if env.Output != nil {
			w = io.MultiWriter(out, liveOutput(env.Output))
		}
		io.Copy(w, pr)
		close(copied)
	}()
	err = cmd.Wait()
	// Whatever the command left running in its group goes with it.
	_ = killProcessGroup(cmd)
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		// A process that left the group (setsid) still holds the pipe.
	}
	pr.Close()
	<-copied
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	took := time.Since(start).Round(time.Millisecond)
	var exit *exec.ExitError
	switch {
	case runCtx.Err() != nil:
		return Result{Content: fmt.Sprintf("The command timed out after %s and was killed.\n%s", timeout, out.String()), IsError: true}, nil
	case errors.As(err, &exit):
		return Result{Content: fmt.Sprintf("Exit code %d (%s).\n%s", exit.ExitCode(), took, out.String()), IsError: true}, nil
	case err != nil:
		return errorResult("the command failed: %v\n%s", err, out.String())
	}
	return Result{Content: fmt.Sprintf("Exit code 0 (%s).\n%s", took, out.String())}, nil
}

// capBuffer keeps the first and last max/2 bytes of what is written.
type capBuffer struct {
	max     int
	head    bytes.Buffer
	tail    []byte
	dropped int
}

func (c *capBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.max/2 - c.head.Len(); room > 0 {
		k := min(room, len(p))
		c.head.Write(p[:k])
		p = p[k:]
	}
	if len(p) > 0 {
		c.tail = append(c.tail, p...)
		if over := len(c.tail) - c.max/2; over > 0 {
			c.dropped += over
			c.tail = append(c.tail[:0], c.tail[over:]...)
		}
	}
	return n, nil
}

func (c *capBuffer) String() string {
	if c.dropped == 0 {
		return c.head.String() + string(c.tail)
	}
	return fmt.Sprintf("%s\n… %d bytes of output left out …\n%s", c.head.String(), c.dropped, c.tail)
}

// liveOutput passes what a command writes on to Env.Output as it arrives.
type liveOutput func(text string)

func (f liveOutput) Write(p []byte) (int, error) {
	f(string(p))
	return len(p), nil
}
