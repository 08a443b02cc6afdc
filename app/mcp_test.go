package app

import (
	"context"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server that never starts: the command does not exist.
func missingServer(name string) chat.MCPServer {
	return chat.MCPServer{Name: name, Transport: chat.MCPStdio, Command: "errand-no-such-mcp-server", Enabled: true,
		Env: map[string]string{"GITHUB_TOKEN": "ghp_secretvalue123"}}
}

func TestMCPServersAreStoredWithTheirEnvironmentOutOfTheDatabase(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	st, err := a.MCP.SaveServer(missingServer("github"))
	require.NoError(t, err)
	id := st.Server.ID
	require.NotEmpty(t, id)
	assert.Equal(t, "ghp_secretvalue123", st.Server.Env["GITHUB_TOKEN"], "the server runs with its environment")

	// Not in the database.
	var config string
	require.NoError(t, a.store.DB().QueryRow(`SELECT config FROM mcp_servers WHERE id = ?`, id).Scan(&config))
	assert.NotContains(t, config, "ghp_secretvalue123")

	// It fails with a clear reason, and nothing else breaks.
	ctx := context.Background()
	got, err := a.mcp.Wait(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, mcp.StatusFailed, got.Status)
	assert.Contains(t, got.Reason, "was not found")

	// A change of risk keeps the environment; disabling shows disabled.
	_, err = a.MCP.SetToolRisk(id, "search", "destructive")
	require.NoError(t, err)
	off, err := a.MCP.SetEnabled(id, false)
	require.NoError(t, err)
	assert.Equal(t, mcp.StatusDisabled, off.Status)
	assert.Equal(t, map[string]string{"search": "destructive"}, off.Server.ToolRisks)
	assert.Equal(t, "ghp_secretvalue123", off.Server.Env["GITHUB_TOKEN"])

	list := a.MCP.ListServers()
	require.Len(t, list, 1)
	require.NoError(t, a.MCP.RemoveServer(id))
	assert.Empty(t, a.MCP.ListServers())
	left, err := a.secrets.Get(envName(id))
	require.NoError(t, err)
	assert.Empty(t, left, "a removed server's environment is forgotten")
}

func TestMCPBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	_, err := a.MCP.SaveServer(missingServer("keep"))
	require.NoError(t, err)

	for _, bad := range []chat.MCPServer{
		{Name: "no command", Transport: chat.MCPStdio, Command: "x"},
		{Name: "ok", Transport: chat.MCPStdio},
		{Name: "web", Transport: chat.MCPHTTP, URL: "ftp://example.com"},
		{Name: "KEEP", Transport: chat.MCPStdio, Command: "x"},
	} {
		_, err := a.MCP.SaveServer(bad)
		assert.Error(t, err, bad.Name)
	}
	_, err = a.MCP.ImportClaudeConfig(`{"mcpServers": {"a": {"command": "x"}, "b": {"args": []}}}`)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.MCP.ImportClaudeConfig(`{"mcpServers": `)
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.MCP.SetToolRisk(a.MCP.ListServers()[0].Server.ID, "t", "reckless")
	assert.Equal(t, chat.CodeInvalid, code(err))

	list := a.MCP.ListServers()
	require.Len(t, list, 1, "nothing was added")
	assert.Equal(t, "keep", list[0].Server.Name)

	// Importing again replaces by name, keeping the id.
	states, err := a.MCP.ImportClaudeConfig(`{"mcpServers": {"keep": {"command": "errand-other-missing"}, "new": {"command": "errand-x", "disabled": true}}}`)
	require.NoError(t, err)
	require.Len(t, states, 2)
	assert.Equal(t, list[0].Server.ID, states[0].Server.ID)
	assert.Equal(t, "errand-other-missing", states[0].Server.Command)
	assert.Equal(t, mcp.StatusDisabled, states[1].Status)
	var n int
	require.NoError(t, a.store.DB().QueryRow(`SELECT count(*) FROM mcp_servers`).Scan(&n))
	assert.Equal(t, 2, n)
}
