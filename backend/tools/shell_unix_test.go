//go:build !windows

package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// processGone reports whether pid no longer runs. A zombie counts as gone:
// it was killed and only waits to be reaped (if the test process happens to
// be a subreaper, the orphan is reparented to it and lingers as a zombie).
// A pid that now belongs to another program counts as gone too.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < 0 || end+2 >= len(s) {
		return false
	}
	// Our background child is "sleep", or still "bash" between fork and
	// exec; any other program means the pid was reused.
	if comm := s[open+1 : end]; comm != "sleep" && comm != "bash" {
		return true
	}
	state := s[end+2]
	return state == 'Z' || state == 'X'
}

// waitGone polls for up to d for pid to be gone.
// The commands' children sleep an hour: a bound of a minute on the call,
// or on a child being gone, is one no loaded machine reaches, yet a call
// that waited for a child, or a child left alive, always does.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if processGone(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hostPids runs commands outside the sandbox, so that the pids a command
// writes are this machine's: the tests that use it check the process-group
// kill, which is what ends a command where there is no sandbox.
var hostPids = RunCommand{NoSandbox: true}

// readPid waits for a command to write a pid to file, and makes sure the
// process is killed when the test ends, whatever happens.
func readPid(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(file)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			require.NoError(t, err)
			require.Greater(t, pid, 1)
			t.Cleanup(func() {
				if !processGone(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			return pid
		}
		require.True(t, time.Now().Before(deadline), "the command never wrote %s", file)
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRunCommandExitZero(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	res, err := call(t, RunCommand{}, env, map[string]any{"command": "echo hello; echo oops >&2"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Regexp(t, `^Exit code 0 \(\d+(\.\d+)?m?s\)\.\n`, res.Content)
	assert.Contains(t, res.Content, "hello\n")
	assert.Contains(t, res.Content, "oops\n", "stderr is captured too")
}

func TestRunCommandNonZeroExit(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	res, err := call(t, RunCommand{}, env, map[string]any{"command": "echo partial; exit 3"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Content, "Exit code 3 ("), res.Content)
	assert.Contains(t, res.Content, "partial\n", "output before the failure is kept")

	res, err = call(t, RunCommand{}, env, map[string]any{"command": "false"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Content, "Exit code 1 ("), res.Content)

	res, err = call(t, RunCommand{}, env, map[string]any{"command": "definitely-not-a-command-xyz"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Content, "Exit code 127 ("), res.Content)
	assert.Contains(t, res.Content, "not found")

	res, err = call(t, RunCommand{}, env, map[string]any{"command": "kill -TERM $$"})
	require.NoError(t, err)
	assert.True(t, res.IsError, "a command killed by a signal is a failure: %s", res.Content)
}

func TestRunCommandRunsInTheWorkspace(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	put(t, w.Dir(), "input.txt", "from the workspace\n")
	real, err := filepath.EvalSymlinks(w.Dir())
	require.NoError(t, err)

	res, err := call(t, RunCommand{}, env, map[string]any{"command": "pwd -P; cat input.txt; echo made > made.txt"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "\n"+real+"\n")
	assert.Contains(t, res.Content, "from the workspace\n")
	assert.Equal(t, "made\n", contents(t, filepath.Join(w.Dir(), "made.txt")))
}

func TestRunCommandEmpty(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	for _, c := range []string{"", "   ", "\n\t"} {
		res, err := call(t, RunCommand{}, env, map[string]any{"command": c})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Equal(t, "the command is empty", res.Content)
	}
}

func TestRunCommandTimeout(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	start := time.Now()
	// The command ignores SIGTERM: only a SIGKILL stops it in time.
	res, err := call(t, RunCommand{}, env, map[string]any{"command": "trap '' TERM; echo before; sleep 3600; echo AFTER-SLEEP", "timeout_seconds": 1})
	took := time.Since(start)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Content, "The command timed out after 1s and was killed.\n"), res.Content)
	assert.Contains(t, res.Content, "before\n", "output up to the timeout is kept")
	assert.NotContains(t, res.Content, "AFTER-SLEEP")
	assert.GreaterOrEqual(t, took, 900*time.Millisecond)
	assert.Less(t, took, time.Minute, "killed promptly at the timeout")
}

func TestRunCommandTimeoutKillsTheWholeGroup(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	res, err := call(t, hostPids, env, map[string]any{
		"command":         "sleep 3600 & echo $! > child.pid; sleep 3600",
		"timeout_seconds": 1,
	})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "timed out")
	pid := readPid(t, filepath.Join(w.Dir(), "child.pid"))
	assert.True(t, waitGone(pid, time.Minute), "the background child %d survived the timeout", pid)
}

func TestRunCommandStopKillsTheGrandchild(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	args := mustJSON(t, map[string]any{"command": "sleep 3600 & echo $! > child.pid; sleep 3600"})
	_, err := builtinRegistry(t).Validate("run_command", string(args))
	require.NoError(t, err)
	go func() {
		res, err := hostPids.Run(ctx, env, args)
		done <- outcome{res, err}
	}()

	pid := readPid(t, filepath.Join(w.Dir(), "child.pid"))
	require.False(t, processGone(pid), "the grandchild runs before Stop")

	start := time.Now()
	cancel()
	select {
	case o := <-done:
		assert.ErrorIs(t, o.err, context.Canceled, "Stop is a Go error, not a tool result")
		assert.Equal(t, Result{}, o.res)
		assert.Less(t, time.Since(start), time.Minute)
	case <-time.After(2 * time.Minute):
		t.Fatal("run_command did not return after the context was cancelled")
	}
	assert.True(t, waitGone(pid, time.Minute), "grandchild %d is still running after Stop", pid)
}

func TestRunCommandFinishedCommandLeavesNoBackgroundChild(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	start := time.Now()
	res, err := call(t, hostPids, env, map[string]any{"command": "sleep 3600 >/dev/null 2>&1 & echo $! > child.pid; echo started"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasPrefix(res.Content, "Exit code 0 ("), res.Content)
	assert.Contains(t, res.Content, "started\n")
	assert.Less(t, time.Since(start), time.Minute, "the command's own exit ends the call")
	pid := readPid(t, filepath.Join(w.Dir(), "child.pid"))
	assert.True(t, waitGone(pid, time.Minute), "the background child %d outlived the command", pid)
}

func TestRunCommandBackgroundChildHoldingOutputIsKilled(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	start := time.Now()
	res, err := call(t, hostPids, env, map[string]any{"command": "sleep 3600 & echo $! > child.pid; echo started"})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "started\n")
	assert.Less(t, time.Since(start), time.Minute, "a child holding the output pipe does not hang the call")
	pid := readPid(t, filepath.Join(w.Dir(), "child.pid"))
	assert.True(t, waitGone(pid, time.Minute), "the background child %d outlived the command", pid)
}

func TestRegressionRunCommandBackgroundChildTurnsSuccessIntoFailure(t *testing.T) {
	t.Parallel()
	w, env := newWorkspace(t)
	start := time.Now()
	res, err := call(t, hostPids, env, map[string]any{"command": "sleep 3600 & echo $! > child.pid; echo started"})
	require.NoError(t, err)
	readPid(t, filepath.Join(w.Dir(), "child.pid"))
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasPrefix(res.Content, "Exit code 0 ("), res.Content)
	assert.Less(t, time.Since(start), time.Minute)
}

func TestRegressionRunCommandAlreadyCancelledIsAToolResult(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := callCtx(t, ctx, RunCommand{}, env, map[string]any{"command": "echo hi"})
	assert.ErrorIs(t, err, context.Canceled, "result: %+v", res)
}

func TestRunCommandOutputCap(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	const body = 200000
	res, err := call(t, RunCommand{}, env, map[string]any{
		"command": fmt.Sprintf(`printf HEAD; head -c %d /dev/zero | tr '\0' x; printf TAIL`, body),
	})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content[:min(200, len(res.Content))])
	total := 4 + body + 4
	dropped := total - MaxCommandOutput
	note := fmt.Sprintf("\n… %d bytes of output left out …\n", dropped)
	assert.Contains(t, res.Content, note)

	out := res.Content[strings.Index(res.Content, "\n")+1:]
	head, tail, ok := strings.Cut(out, note)
	require.True(t, ok)
	assert.Len(t, head, MaxCommandOutput/2)
	assert.Len(t, tail, MaxCommandOutput/2)
	assert.True(t, strings.HasPrefix(head, "HEADxxx"), "the head is kept")
	assert.True(t, strings.HasSuffix(tail, "xxxTAIL"), "the tail is kept")
	assert.Equal(t, strings.Repeat("x", len(tail)-4), tail[:len(tail)-4])
}

func TestRunCommandOutputUnderTheCapIsWhole(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	res, err := call(t, RunCommand{}, env, map[string]any{
		"command": fmt.Sprintf(`head -c %d /dev/zero | tr '\0' y`, MaxCommandOutput),
	})
	require.NoError(t, err)
	require.False(t, res.IsError)
	out := res.Content[strings.Index(res.Content, "\n")+1:]
	assert.Equal(t, strings.Repeat("y", MaxCommandOutput), out, "exactly the cap is kept whole, without a note")
}

func TestRunCommandsInParallel(t *testing.T) {
	t.Parallel()
	_, env := newWorkspace(t)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			args := mustJSON(t, map[string]any{"command": fmt.Sprintf("for j in 1 2 3; do echo run%d-$j; done", i)})
			res, err := RunCommand{}.Run(context.Background(), env, args)
			assert.NoError(t, err)
			assert.False(t, res.IsError)
			assert.Contains(t, res.Content, fmt.Sprintf("run%d-1\nrun%d-2\nrun%d-3\n", i, i, i))
			for j := 0; j < 6; j++ {
				if j != i {
					assert.NotContains(t, res.Content, fmt.Sprintf("run%d-", j))
				}
			}
		}(i)
	}
	wg.Wait()
}

func TestRunCommandDescriptionStatesItsLimits(t *testing.T) {
	d := RunCommand{}.Description()
	assert.Contains(t, d, "64 KiB")
	assert.Contains(t, d, "1m0s")
	s := RunCommand{}.Schema()["properties"].(map[string]any)["timeout_seconds"].(map[string]any)
	assert.Equal(t, 1, s["minimum"])
	assert.Equal(t, 600, s["maximum"])
}

func TestCapBuffer(t *testing.T) {
	write := func(c *capBuffer, chunks ...string) {
		for _, s := range chunks {
			n, err := c.Write([]byte(s))
			require.NoError(t, err)
			require.Equal(t, len(s), n, "Write reports every byte as taken")
		}
	}

	c := &capBuffer{max: 10}
	write(c, "abc", "de")
	assert.Equal(t, "abcde", c.String())

	c = &capBuffer{max: 10}
	write(c, "0123456789")
	assert.Equal(t, "0123456789", c.String(), "exactly max bytes: nothing dropped")

	c = &capBuffer{max: 10}
	write(c, "0123456789X")
	assert.Equal(t, "01234\n… 1 bytes of output left out …\n6789X", c.String())

	c = &capBuffer{max: 10}
	for _, r := range "abcdefghijklmnopqrstuvwxyz" {
		write(c, string(r))
	}
	assert.Equal(t, "abcde\n… 16 bytes of output left out …\nvwxyz", c.String(), "byte by byte")

	c = &capBuffer{max: 10}
	write(c, "abcdefghijklmnopqrstuvwxyz")
	assert.Equal(t, "abcde\n… 16 bytes of output left out …\nvwxyz", c.String(), "all at once")

	c = &capBuffer{max: 10}
	write(c, "abc", "defghijk", "", "lmnopqrstuvwxyz")
	assert.Equal(t, "abcde\n… 16 bytes of output left out …\nvwxyz", c.String(), "uneven chunks")
}
