package anthropic_test

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImagesGoAsImageBlocksInTheTurnAndInToolResults(t *testing.T) {
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply {
		return anthropictest.Reply{Text: "I see a square."}
	})
	p := newProvider(t, srv)
	photo := llm.Image{Mime: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfake"), Name: "a.png"}
	shot := llm.Image{Mime: "image/jpeg", Data: []byte("\xff\xd8\xff fake"), Name: "tool image"}
	req := llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "You are Errand."},
		{Role: chat.RoleUser, Content: "What is this?", Images: []llm.Image{photo}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"x"}`}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: "[image]", Images: []llm.Image{shot}},
	}, Tools: []llm.Tool{readFile}}
	_, err := p.Stream(context.Background(), req, llm.Deltas{})
	require.NoError(t, err)
	require.Empty(t, srv.Rejections())

	msgs := srv.Requests()[0].Messages
	user := msgs[0].Content
	require.Len(t, user, 2)
	assert.Equal(t, "text", user[0].Type)
	assert.Equal(t, "image", user[1].Type)
	assert.Equal(t, "image/png", user[1].Source.MediaType)
	assert.Equal(t, base64.StdEncoding.EncodeToString(photo.Data), user[1].Source.Data)

	result := msgs[2].Content[0]
	require.Equal(t, "tool_result", result.Type)
	require.Len(t, result.Content, 2, "the tool's image goes inside its result")
	assert.Equal(t, "image/jpeg", result.Content[1].Source.MediaType)
}
