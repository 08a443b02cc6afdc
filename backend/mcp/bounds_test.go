package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnEndlessToolListFailsTheServerWithTheReason(t *testing.T) {
	m, w := newManager(t, mcp.Options{StartTimeout: time.Minute})
	m.Set([]chat.MCPServer{fakeServer(t, "endless", "endless"), fakeServer(t, "many", "many")})
	st := w.wait(t, "endless", "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
	assert.Contains(t, st.Reason, "tool list did not end after 100 pages")
	st = w.wait(t, "many", "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
	assert.Contains(t, st.Reason, "more than 1000 tools")
}

func TestSchemasThatReferToFilesAreRefusedAndErrandStaysResponsive(t *testing.T) {
	dir := t.TempDir()
	local := filepath.Join(dir, "local.json")
	require.NoError(t, os.WriteFile(local, []byte(`{"type":"string","description":"private notes"}`), 0o600))
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	ref := func(name, url string) map[string]any {
		return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"x": map[string]any{"$ref": url}}}}
	}
	list, _ := json.Marshal([]any{ref("reads", "file://"+local), ref("blocks", "file://"+fifo),
		map[string]any{"name": "fine", "inputSchema": map[string]any{"type": "object"}}})
	m, w := newManager(t, mcp.Options{})
	m.Set([]chat.MCPServer{fakeServer(t, "hostile", string(list))})
	st := w.wait(t, "hostile", "ready", hasTool("fine"))
	refused := map[string]string{}
	for _, ti := range st.Tools {
		refused[ti.Name] = ti.Refused
	}
	assert.Contains(t, refused["reads"], "refers to file://"+local)
	assert.Contains(t, refused["blocks"], "refers to file://"+fifo)
	assert.Empty(t, refused["fine"])
	assert.Nil(t, offered(m, "hostile__reads"))
	assert.NotNil(t, offered(m, "hostile__fine"))
	assert.Len(t, m.States(), 1, "the manager still answers")
}

func TestCollidingAndNamelessToolsAreRefused(t *testing.T) {
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}}
	}
	underscored, _ := json.Marshal([]any{tool("_y"), tool(""), tool("z")})
	plain, _ := json.Marshal([]any{tool("y")})
	m, w := newManager(t, mcp.Options{})
	x, xu := fakeServer(t, "x", string(underscored)), fakeServer(t, "xu", string(plain))
	xu.Name = "x_" // a name stored before names ending in "_" were refused
	m.Set([]chat.MCPServer{x, xu})
	st := w.wait(t, "x", "ready", hasTool("z"))
	w.wait(t, "xu", "ready", hasTool("y"))
	for _, ti := range st.Tools {
		if ti.Name != "z" {
			assert.Contains(t, ti.Refused, "not offered", ti.Name)
		}
	}
	list, _ := m.Tools()
	var names []string
	for _, t := range list {
		names = append(names, t.Name())
	}
	assert.ElementsMatch(t, []string{"x__z"}, names, "x___y is neither server's")

	_, err := chat.CleanMCPServer(chat.MCPServer{Name: "x_", Transport: chat.MCPStdio, Command: "true"})
	assert.Error(t, err, "a new server name may not end in _")
}
