package openai

import (
	"context"
	"testing"

	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A named tool set is encoded once and then sent as encoded: the server
// gets the same definitions as from a set sent without a name, every time.
func TestANamedToolSetReachesTheServerAsAnUnnamedOne(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, compat.Reply{Text: "ok"})
	schema := map[string]any{"type": "object", "required": []any{"path"},
		"properties": map[string]any{"path": map[string]any{"type": "string", "description": "A file <under> the workspace & \"quoted\""}}}
	req := simple
	req.Tools = []llm.Tool{{Name: "read_file", Description: "Reads a file.", Parameters: schema},
		{Name: "task_complete", Description: "Ends the task.", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}}
	for _, key := range []string{"", t.Name(), t.Name()} {
		req.ToolsKey = key
		_, err := p.Stream(context.Background(), req, llm.Deltas{})
		require.NoError(t, err)
	}
	got := srv.Requests()
	require.Len(t, got, 3)
	assert.Empty(t, srv.Rejections())
	require.Len(t, got[0].Tools, 2)
	assert.Equal(t, "A file <under> the workspace & \"quoted\"",
		got[0].Tools[0].Function.Parameters["properties"].(map[string]any)["path"].(map[string]any)["description"])
	assert.Equal(t, got[0].Tools, got[1].Tools, "encoded once")
	assert.Equal(t, got[0].Tools, got[2].Tools, "sent as encoded")
}
