package compat

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
)

// These tests drive the server with the official SDK the app uses, so the
// wire format and the accepted request fields are checked against a real
// client rather than against this package's own reader.

func sdkClient(baseURL string) openai.Client {
	return openai.NewClient(option.WithBaseURL(baseURL), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
}

func sdkParams(msgs ...openai.ChatCompletionMessageParamUnion) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    "test-model",
		Messages: msgs,
		Tools: []openai.ChatCompletionToolUnionParam{
			openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:        "ask_user",
				Description: openai.String("Ask the user a question."),
				Parameters: openai.FunctionParameters{
					"type":       "object",
					"properties": map[string]any{"question": map[string]any{"type": "string"}},
					"required":   []string{"question"},
				},
			}),
		},
		StreamOptions:     openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		ParallelToolCalls: openai.Bool(false),
		Temperature:       openai.Float(0.2),
	}
}

func TestSDKStreamsToolRound(t *testing.T) {
	s := NewServer(func(r *Request) Reply {
		if r.Messages[len(r.Messages)-1].Role == "tool" {
			return Reply{Text: "You said " + r.Messages[len(r.Messages)-1].Text() + "."}
		}
		return Reply{Text: "Let me ask you.", ToolCalls: []chat.ToolCall{{Name: "ask_user", Arguments: `{"question":"Which colour, red or blue?"}`}}}
	})
	baseURL, stop := s.Start()
	defer stop()
	client := sdkClient(baseURL)
	ctx := context.Background()

	params := sdkParams(openai.SystemMessage("You are Errand."), openai.UserMessage("Pick a colour"))
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	var texts []string
	for stream.Next() {
		chunk := stream.Current()
		acc.AddChunk(chunk)
		if len(chunk.Choices) == 1 && chunk.Choices[0].Delta.Content != "" {
			texts = append(texts, chunk.Choices[0].Delta.Content)
		}
	}
	require.NoError(t, stream.Err())
	require.Empty(t, s.Rejections(), "the SDK's request must be accepted")

	require.Len(t, acc.Choices, 1)
	msg := acc.Choices[0].Message
	assert.Equal(t, []string{"Let", " me", " ask", " you."}, texts)
	assert.Equal(t, "Let me ask you.", msg.Content)
	assert.Equal(t, "tool_calls", acc.Choices[0].FinishReason)
	require.Len(t, msg.ToolCalls, 1)
	assert.Equal(t, "ask_user", msg.ToolCalls[0].Function.Name)
	assert.Equal(t, `{"question":"Which colour, red or blue?"}`, msg.ToolCalls[0].Function.Arguments)
	assert.Positive(t, acc.Usage.TotalTokens)

	// Send the transcript back with the tool's result, as the agent does.
	params.Messages = append(params.Messages, msg.ToParam(), openai.ToolMessage("blue", msg.ToolCalls[0].ID))
	stream = client.Chat.Completions.NewStreaming(ctx, params)
	acc = openai.ChatCompletionAccumulator{}
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	require.NoError(t, stream.Err())
	require.Empty(t, s.Rejections())
	assert.Equal(t, "You said blue.", acc.Choices[0].Message.Content)
	assert.Equal(t, "stop", acc.Choices[0].FinishReason)

	reqs := s.Requests()
	require.Len(t, reqs, 2)
	assert.True(t, reqs[1].Stream)
	assert.True(t, reqs[1].StreamOptions.IncludeUsage)
	require.Len(t, reqs[1].Messages, 4)
	assert.Equal(t, msg.ToolCalls[0].ID, reqs[1].Messages[2].ToolCalls[0].ID)
	assert.Equal(t, msg.ToolCalls[0].ID, reqs[1].Messages[3].ToolCallID)
}

func TestSDKSeesRejection(t *testing.T) {
	s := NewServer(nil)
	baseURL, stop := s.Start()
	defer stop()

	// A tool call left unanswered: the mistake the validator exists for.
	call := openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ChatCompletionMessageToolCallUnion{{
		ID: "call_1", Type: "function",
		Function: openai.ChatCompletionMessageFunctionToolCallFunction{Name: "ask_user", Arguments: "{}"},
	}}}
	params := sdkParams(openai.UserMessage("hi"), call.ToParam(), openai.UserMessage("again"))
	client := sdkClient(baseURL)
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	for stream.Next() {
	}
	var apiErr *openai.Error
	require.ErrorAs(t, stream.Err(), &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "must be followed by tool messages")
	assert.Equal(t, "messages.[1].role", apiErr.Param)
	assert.Len(t, s.Rejections(), 1)
}

func TestSDKCancelMidStream(t *testing.T) {
	s := NewServer(func(*Request) Reply { return Reply{Text: "Partial answer", HangAfterText: true} })
	baseURL, stop := s.Start()
	defer stop()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := sdkClient(baseURL)
	stream := client.Chat.Completions.NewStreaming(ctx, sdkParams(openai.UserMessage("hi")))
	var text string
	for text != "Partial answer" && stream.Next() {
		if c := stream.Current(); len(c.Choices) == 1 {
			text += c.Choices[0].Delta.Content
		}
	}
	require.Equal(t, "Partial answer", text)
	cancel()
	for stream.Next() {
	}
	assert.True(t, errors.Is(stream.Err(), context.Canceled), "got %v", stream.Err())
	select {
	case <-s.Disconnects():
	case <-time.After(time.Minute):
		t.Fatal("hang-up not noticed")
	}
}
