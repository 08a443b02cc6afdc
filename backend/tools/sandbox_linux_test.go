package tools

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/logfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func needSandbox(t *testing.T) {
	t.Helper()
	if !SandboxAvailable() {
		t.Skip("bubblewrap cannot run here (not installed, or namespaces forbidden)")
	}
}

func TestSandboxedCommandCannotWriteOutsideTheWorkspace(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	w, env := newWorkspace(t)
	// Outside the workspace: a folder outside /tmp (read-only in the
	// sandbox; not this package's folder, which may itself be under /tmp)
	// and another temporary folder (hidden by the private /tmp).
	outside, err := os.MkdirTemp("/var/tmp", "errand-sandbox-test")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(outside) })
	readOnly := filepath.Join(outside, "written.txt")
	hidden := filepath.Join(t.TempDir(), "outside.txt")

	res, err := call(t, RunCommand{}, env, map[string]any{
		"command": fmt.Sprintf("echo in > inside.txt; echo tmp > /tmp/scratch && cat /tmp/scratch; echo out > %s; echo out > %s", readOnly, hidden),
	})
	require.NoError(t, err)
	assert.True(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "Read-only file system")
	assert.Contains(t, res.Content, "tmp\n", "the private temporary folder is writable")
	assert.Equal(t, "in\n", contents(t, filepath.Join(w.Dir(), "inside.txt")))
	assert.NoFileExists(t, readOnly)
	assert.NoFileExists(t, hidden)
}

func TestSandboxedCommandReachesTheNetworkOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	_, env := newWorkspace(t)

	res, err := call(t, RunCommand{}, env, map[string]any{"command": cmd, "network": true})
	require.NoError(t, err)
	assert.True(t, res.IsError, "asking is not allowing: %s", res.Content)
	assert.NotContains(t, res.Content, "connected\n")

	env.Network = true
	res, err = call(t, RunCommand{}, env, map[string]any{"command": cmd, "network": true})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "connected\n")
}

// waitMarked waits until some process holds marker (want true) or none does.
func waitMarked(t *testing.T, marker string, want bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // only a broken stop waits so long, however busy the machine
	for (len(markedProcesses(marker)) > 0) != want {
		require.True(t, time.Now().Before(deadline), "processes marked %s: %v, want running=%v", marker, markedProcesses(marker), want)
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSandboxedStopEndsEvenAChildThatLeftTheGroup(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	_, env := newWorkspace(t)
	marker := fmt.Sprintf("300.%d", time.Now().UnixNano()%1e9)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := RunCommand{}.Run(ctx, env, mustJSON(t, map[string]any{
			"command": fmt.Sprintf("setsid sleep %s & sleep %s", marker, marker),
		}))
		done <- err
	}()
	waitMarked(t, marker, true)
	for len(markedProcesses(marker)) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
	waitMarked(t, marker, false)
}

func TestCommandsGetNoSecrets(t *testing.T) {
	// Not parallel: it sets the process's environment.
	const key = "sk-test-0123456789abcdefghij"
	const token = "mcp-token-9876543210zyxwvu"
	logfile.Secrets.Add(key, token)
	t.Setenv("OPENAI_API_KEY", "set-by-the-person-1234")
	t.Setenv("SOME_TOOL_AUTH", "Bearer "+key)
	t.Setenv("SERVER_TOKEN", token)
	t.Setenv("ORDINARY_SETTING", "kept")
	for _, rc := range []RunCommand{{}, {NoSandbox: true}} {
		_, env := newWorkspace(t)
		res, err := call(t, rc, env, map[string]any{"command": "env"})
		require.NoError(t, err)
		assert.False(t, res.IsError, res.Content)
		assert.Contains(t, res.Content, "ORDINARY_SETTING=kept")
		for _, secret := range []string{"OPENAI_API_KEY", "set-by-the-person-1234", key, token} {
			assert.NotContains(t, res.Content, secret, "sandboxed=%v", rc.Sandboxed())
		}
	}
}
