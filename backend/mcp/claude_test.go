package mcp_test

import (
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClaudeDesktopConfigurationIsImported(t *testing.T) {
	got, err := mcp.ParseClaudeConfig([]byte(`{"mcpServers": {
		"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
		"github": {"command": "docker", "args": ["run", "ghcr.io/github/github-mcp-server"], "env": {"GITHUB_TOKEN": "x"}},
		"remote": {"url": "https://example.com/mcp"}
	}, "globalShortcut": "Ctrl+Space"}`))
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, chat.MCPServer{Name: "filesystem", Transport: chat.MCPStdio, Command: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Enabled: true}, got[0])
	assert.Equal(t, map[string]string{"GITHUB_TOKEN": "x"}, got[1].Env)
	assert.Equal(t, chat.MCPHTTP, got[2].Transport)
	assert.Equal(t, "https://example.com/mcp", got[2].URL)
}

func TestABrokenClaudeConfigurationSaysWhatIsWrong(t *testing.T) {
	for config, problem := range map[string]string{
		`{"mcpServers": {"a": {"command": "x",}}}`:       "not valid JSON",
		`{"servers": {}}`:                                `no "mcpServers"`,
		`{"mcpServers": {"a": {"args": ["x"]}}}`:         "needs a command",
		`{"mcpServers": {"bad name": {"command": "x"}}}`: "server name",
		`{"mcpServers": {"a": {"command": ["x"]}}}`:      "not an object with a command",
		`{"mcpServers": {"a__b": {"command": "x"}}}`:     "no \"__\"",
		`[1, 2]`: "not valid JSON",
	} {
		got, err := mcp.ParseClaudeConfig([]byte(config))
		require.Error(t, err, config)
		assert.Nil(t, got)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), config)
		assert.Contains(t, err.Error(), problem, config)
	}
}
