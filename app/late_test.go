package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp/mcptest"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stored MCP servers start once the window has shown its first
// screen; a task that starts before then has their tools all the same: it
// starts them and waits for them.
func TestMCPServersStartAfterTheFirstScreenYetATaskStartedBeforeHasTheirTools(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var offered []string
	srv := compat.NewServer(func(req *compat.Request) compat.Reply {
		mu.Lock()
		for _, tl := range req.Tools {
			offered = append(offered, tl.Function.Name)
		}
		mu.Unlock()
		return compat.Reply{ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"done"}`}}}
	})
	url, stop := srv.Start()
	defer stop()
	cfg := Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, BaseURL: url, APIKey: "k", Model: "m"}

	first, err := New(context.Background(), cfg)
	require.NoError(t, err)
	_, err = first.MCP.SaveServer(mcptest.Everything(t, "everything"))
	require.NoError(t, err)
	first.Shutdown(context.Background())

	a := newAppWith(t, cfg)
	// However slow the machine, the server's start ends before this (its
	// own bound is 30 s): the test waits for it, not for a time.
	a.mcpLate.wait = 2 * time.Minute
	assert.Empty(t, a.mcp.States(), "no server started before the window is ready")
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.StartTask(c.ID, "Echo hello")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, err := a.runner.Task(context.Background(), task.ID)
		return err == nil && got.Status.Terminal()
	}, 2*time.Minute, 20*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.True(t, slices.Contains(offered, "everything__echo"), "the task's request offers the MCP server's tools: %v", offered)
}

// The window's word that its first screen is painted starts them.
func TestWindowReadyStartsTheStoredMCPServers(t *testing.T) {
	t.Parallel()
	cfg := Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}}
	first, err := New(context.Background(), cfg)
	require.NoError(t, err)
	_, err = first.MCP.SaveServer(missingServer("later"))
	require.NoError(t, err)
	first.Shutdown(context.Background())

	a := newAppWith(t, cfg)
	assert.Empty(t, a.mcp.States())
	a.Window.Ready(nil)
	require.Eventually(t, func() bool { return len(a.mcp.States()) == 1 }, 2*time.Minute, 10*time.Millisecond)
	assert.Equal(t, "later", a.mcp.States()[0].Server.Name)
}

// What a previous run left in the attachments (here a file no message
// names, as a deleted conversation leaves) is swept once the window has
// shown its first screen, not before it.
func TestAttachmentsLeftByTheLastRunAreSweptAfterTheFirstScreen(t *testing.T) {
	t.Parallel()
	cfg := Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}}
	first, err := New(context.Background(), cfg)
	require.NoError(t, err)
	first.Shutdown(context.Background())
	id := strings.Repeat("ab", 32)
	orphan := filepath.Join(cfg.DataDir, attachmentsDir, "files", id[:2], id[2:])
	require.NoError(t, os.MkdirAll(filepath.Dir(orphan), 0o700))
	require.NoError(t, os.WriteFile(orphan, []byte("left behind"), 0o600))

	a := newAppWith(t, cfg)
	assert.FileExists(t, orphan, "nothing is swept before the window is ready")
	a.Window.Ready(nil)
	require.Eventually(t, func() bool {
		_, err := os.Stat(orphan)
		return os.IsNotExist(err)
	}, 2*time.Minute, 10*time.Millisecond, "swept once the window is ready")
}
