package mcp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/errand-app/errand/backend/chat"
)

// fakeMode, in a child's environment, makes the test binary a hostile
// MCP server over stdio (see serveFake).
const fakeMode = "ERRAND_TEST_FAKE_MCP"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeMode); mode != "" {
		serveFake(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer is a stdio server played by the test binary.
func fakeServer(t *testing.T, id, mode string) chat.MCPServer {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return chat.MCPServer{ID: id, Name: id, Transport: chat.MCPStdio, Command: exe, Enabled: true,
		Env: map[string]string{fakeMode: mode}}
}

// serveFake answers JSON-RPC lines on stdin: initialize, and tools/list in
// the way the mode says — "endless" (every page names a next one),
// "many" (MaxServerTools+1 tools on one page), or a JSON array of tools
// to list.
func serveFake(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	page := 0
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": req.Params.ProtocolVersion,
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "fake", "version": "1"}}
		case "tools/list":
			result = fakeTools(mode, &page)
		default:
			result = map[string]any{}
		}
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}

func fakeTools(mode string, page *int) map[string]any {
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}}
	}
	switch mode {
	case "endless":
		*page++
		return map[string]any{"tools": []any{tool(fmt.Sprintf("t%d", *page))}, "nextCursor": fmt.Sprintf("c%d", *page)}
	case "many":
		var list []any
		for i := range 1001 {
			list = append(list, tool(fmt.Sprintf("t%d", i)))
		}
		return map[string]any{"tools": list}
	}
	var list []any
	_ = json.Unmarshal([]byte(mode), &list)
	return map[string]any{"tools": list}
}
