package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImagesToolsReturnedReachTheModel: a tool result naming a kept image
// (as MCP results do) carries that image, downscaled, in the model's view.
func TestImagesToolsReturnedReachTheModel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, newDB(t))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	files := attach.Open(filepath.Join(t.TempDir(), "attachments"), st, st)
	id, err := st.SaveToolImage(ctx, "image/png", pngOf(t, 3000, 100))
	require.NoError(t, err)

	history := []chat.Message{
		{Role: chat.RoleUser, Content: "Take a screenshot"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "screenshot", Arguments: "{}"}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: fmt.Sprintf("[image image/png, 900 bytes, shown to the user: %s%s]", mcp.ImageRef, id)},
	}
	msgs := buildContext("system", history, true, files)
	result := msgs[3]
	require.Equal(t, chat.RoleTool, result.Role)
	require.Len(t, result.Images, 1)
	assert.Equal(t, [2]int{2048, 68}, [2]int{result.Images[0].Width, result.Images[0].Height})

	without := buildContext("system", history, true, nil)
	assert.Empty(t, without[3].Images, "without attachments, the reference stays text")
}
