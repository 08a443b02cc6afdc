package openai_test

import (
	"context"
	"errors"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	photo = llm.Image{Mime: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), Name: "board.png"}
	shot  = llm.Image{Mime: "image/jpeg", Data: []byte("\xff\xd8\xff\xe0 fake"), Name: "image returned by a tool"}
)

func imageRequest() llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: "You are Errand."},
		{Role: chat.RoleUser, Content: "What is this?", Images: []llm.Image{photo}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "look", Arguments: `{}`}, {ID: "c2", Name: "look", Arguments: `{}`}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: "[image]", Images: []llm.Image{shot}},
		{Role: chat.RoleTool, ToolCallID: "c2", Content: "nothing"},
	}, Tools: []llm.Tool{{Name: "look", Description: "Look", Parameters: map[string]any{"type": "object"}}}}
}

func serve(t *testing.T, model string) (*compat.Server, *openai.Provider) {
	srv := compat.NewServer(nil)
	url, stop := srv.Start()
	t.Cleanup(stop)
	return srv, openai.New(openai.Config{BaseURL: url, Model: model, MaxRetries: -1})
}

func TestImagesGoAsImageURLPartsAndToolImagesAfterTheResults(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, "vision-model")
	_, err := p.Stream(context.Background(), imageRequest(), llm.Deltas{})
	require.NoError(t, err)
	require.Empty(t, srv.Rejections(), "the strict server takes the parts")

	msgs := srv.Requests()[0].Messages
	require.Len(t, msgs, 6)
	assert.Equal(t, "What is this?", msgs[1].Text())
	require.Len(t, msgs[1].Images(), 1)
	assert.Equal(t, compat.Image{Mime: "image/png", Data: photo.Data}, msgs[1].Images()[0])
	assert.Equal(t, []string{"tool", "tool", "user"}, []string{msgs[3].Role, msgs[4].Role, msgs[5].Role},
		"a tool message holds text only: the tool's image follows the results as a user message")
	assert.Equal(t, []compat.Image{{Mime: "image/jpeg", Data: shot.Data}}, msgs[5].Images())
}

func TestAServerThatRefusesImagesIsExplained(t *testing.T) {
	t.Parallel()
	srv, p := serve(t, "mock-"+compat.TextOnlyMarker)
	_, err := p.Stream(context.Background(), imageRequest(), llm.Deltas{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, llm.ErrNoImages))
	assert.Contains(t, err.Error(), "The model does not take images")
	assert.Len(t, srv.Rejections(), 1)
}

func TestTheStrictServerRefusesMalformedImageParts(t *testing.T) {
	t.Parallel()
	for name, img := range map[string]llm.Image{
		"a type the API does not take": {Mime: "image/bmp", Data: []byte("BM....")},
		"bytes that are not the type":  {Mime: "image/png", Data: []byte("plain text")},
	} {
		srv, p := serve(t, "vision-model")
		req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "x", Images: []llm.Image{img}}}}
		_, err := p.Stream(context.Background(), req, llm.Deltas{})
		require.Error(t, err, name)
		assert.False(t, errors.Is(err, llm.ErrNoImages), name)
		assert.Len(t, srv.Rejections(), 1, name)
	}
}

func TestRefusalWordingsOfRealServersAreRecognised(t *testing.T) {
	t.Parallel()
	for _, said := range []string{
		"Invalid content type. image_url is only supported by certain models.",
		"this model does not support image input (ref: 9152fe9a)",
		"Model does not support images. Please use a model that does",
		"image input is not supported - hint: if this is unexpected, you may need to provide the mmproj",
		"Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text`",
	} {
		assert.True(t, llm.RefusesImages(said), said)
	}
	assert.False(t, llm.RefusesImages("unsupported image format"), "a bad image is not a model without vision")
}
