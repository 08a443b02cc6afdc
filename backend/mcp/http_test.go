package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// httpServer is an MCP server of the SDK's own over Streamable HTTP: an
// "add" tool, a "broken" one whose schema does not compile, and a "wait"
// tool that reports when a call of it started and when the client
// cancelled it.
func httpServer(t testing.TB) (url string, started, cancelled <-chan struct{}) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	type addIn struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "add", Description: "Adds", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			b, _ := json.Marshal(in.A + in.B)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil, nil
		})
	srv.AddTool(&sdk.Tool{Name: "broken", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":12}}}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	began, done := make(chan struct{}), make(chan struct{})
	srv.AddTool(&sdk.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			close(began)
			<-ctx.Done()
			close(done)
			return nil, ctx.Err()
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL, began, done
}

func ptr[T any](v T) *T { return &v }

func TestStreamableHTTPServer(t *testing.T) {
	url, started, cancelled := httpServer(t)
	m, w := newManager(t, mcp.Options{})
	m.Set([]chat.MCPServer{{ID: "h", Name: "remote", Transport: chat.MCPHTTP, URL: url, Enabled: true}})
	st := w.wait(t, "h", "ready", hasTool("add"))

	risks := map[string]string{}
	for _, ti := range st.Tools {
		risks[ti.Name] = ti.Risk
		if ti.Name == "broken" {
			assert.Contains(t, ti.Refused, "not offered")
		}
	}
	assert.Equal(t, map[string]string{"add": "read_only", "broken": "writes", "wait": "destructive"}, risks)
	assert.Nil(t, offered(m, "remote__broken"), "a tool whose schema does not compile is refused")

	res := run(t, offered(m, "remote__add"), `{"a":20,"b":22}`, tools.Env{})
	assert.Equal(t, "42", strings.TrimSpace(res.Content))

	// Stop: the call returns at once, and the server hears the protocol's
	// cancellation.
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := offered(m, "remote__wait").Run(ctx, tools.Env{}, json.RawMessage(`{}`))
		errc <- err
	}()
	// Cancelled once the server has the call (the wait tool never ends by
	// itself), so the server always has a call to be told about.
	<-started
	cancel()
	select {
	case err := <-errc:
		assert.True(t, errors.Is(err, context.Canceled))
	case <-time.After(time.Minute):
		t.Fatal("the call did not end when cancelled")
	}
	select {
	case <-cancelled:
	case <-time.After(time.Minute):
		t.Fatal("the server was not told the call was cancelled")
	}
}

func TestAnUnreachableHTTPServerFails(t *testing.T) {
	m, w := newManager(t, mcp.Options{})
	m.Set([]chat.MCPServer{{ID: "h", Name: "gone", Transport: chat.MCPHTTP, URL: "http://127.0.0.1:1/mcp", Enabled: true}})
	st := w.wait(t, "h", "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
	assert.Contains(t, st.Reason, "could not be reached")
}
