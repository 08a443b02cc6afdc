// Package openai is the llm.Provider for any OpenAI-compatible Chat
// Completions server (OpenAI, Ollama, LM Studio, OpenRouter, vLLM, Errand's
// own demo model), built on openai-go.
package openai

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Config says where the model is.
type Config struct {
	BaseURL string // e.g. https://api.openai.com/v1 or http://localhost:11434/v1
	APIKey  string // may be empty for local servers
	Model   string
	// MaxRetries for 429 and 5xx answers (openai-go honours Retry-After).
	// Zero means the default of 2; negative means none.
	MaxRetries int
	HTTPClient *http.Client
	// ContextLength is the model's context length as the server reported
	// it (0: it did not).
	ContextLength int
}

// Provider talks to one model on one server.
type Provider struct {
	client oa.Client
	cfg    Config
}

var _ llm.Provider = (*Provider)(nil)
var _ llm.ContextReporter = (*Provider)(nil)

// ReportedContextLength is Config.ContextLength.
func (p *Provider) ReportedContextLength() int { return p.cfg.ContextLength }

// New returns a Provider for cfg.
func New(cfg Config) *Provider {
	key := cfg.APIKey
	if key == "" {
		// Local servers ignore the key, but the header must be well formed.
		key = "no-key"
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(key),
	}
	switch {
	case cfg.MaxRetries < 0:
		opts = append(opts, option.WithMaxRetries(0))
	case cfg.MaxRetries > 0:
		opts = append(opts, option.WithMaxRetries(cfg.MaxRetries))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &Provider{client: oa.NewClient(opts...), cfg: cfg}
}

// Model names the configured model.
func (p *Provider) Model() string { return p.cfg.Model }

// Stream sends req and streams the reply; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, out llm.Deltas) (llm.Response, error) {
	params := oa.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.cfg.Model),
		Messages:      toMessages(req.Messages),
		StreamOptions: oa.ChatCompletionStreamOptionsParam{IncludeUsage: oa.Bool(true)},
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, oa.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: oa.String(t.Description),
			Parameters:  shared.FunctionParameters(t.Parameters),
		}))
	}

	stream := p.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var resp llm.Response
	var text strings.Builder
	calls := map[int64]*chat.ToolCall{}
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Usage.TotalTokens > 0 || chunk.Usage.PromptTokens > 0 {
			resp.Usage = chat.Usage{
				PromptTokens:     chunk.Usage.PromptTokens,
				CompletionTokens: chunk.Usage.CompletionTokens,
				TotalTokens:      chunk.Usage.TotalTokens,
			}
		}
		for _, choice := range chunk.Choices {
			if choice.Index != 0 {
				continue
			}
			if d := choice.Delta.Content; d != "" {
				text.WriteString(d)
				out.OnText(d)
			}
			for _, tc := range choice.Delta.ToolCalls {
				c := calls[tc.Index]
				if c == nil {
					c = &chat.ToolCall{}
					calls[tc.Index] = c
				}
				if tc.ID != "" {
					c.ID = tc.ID
				}
				if tc.Function.Name != "" {
					c.Name = tc.Function.Name
				}
				c.Arguments += tc.Function.Arguments
			}
			if choice.FinishReason != "" {
				resp.FinishReason = choice.FinishReason
			}
		}
	}
	if err := stream.Err(); err != nil {
		if ctx.Err() != nil {
			return resp, ctx.Err()
		}
		return resp, p.explain(err)
	}
	resp.Content = text.String()
	resp.ToolCalls = orderCalls(calls)
	return resp, nil
}

// orderCalls returns the streamed tool calls by index. A call the server
// sent without an id gets one, so its result can be matched to it.
func orderCalls(calls map[int64]*chat.ToolCall) []chat.ToolCall {
	idx := make([]int64, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	out := make([]chat.ToolCall, 0, len(idx))
	for _, i := range idx {
		c := *calls[i]
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d", i)
		}
		out = append(out, c)
	}
	return out
}

func toMessages(msgs []llm.Message) []oa.ChatCompletionMessageParamUnion {
	out := make([]oa.ChatCompletionMessageParamUnion, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case chat.RoleSystem:
			out = append(out, oa.SystemMessage(m.Content))
		case chat.RoleUser:
			out = append(out, oa.UserMessage(m.Content))
		case chat.RoleTool:
			out = append(out, oa.ToolMessage(m.Content, m.ToolCallID))
		case chat.RoleAssistant:
			a := oa.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = oa.String(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, oa.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &oa.ChatCompletionMessageFunctionToolCallParam{
						ID: c.ID,
						Function: oa.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      c.Name,
							Arguments: c.Arguments,
						},
					},
				})
			}
			out = append(out, oa.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	return out
}

// explain turns a failed request into a chat.Error a person understands.
func (p *Provider) explain(err error) error {
	var apiErr *oa.Error
	if errors.As(err, &apiErr) {
		detail := strings.TrimSpace(apiErr.Message)
		// A server may repeat the key it was sent; the message never does.
		if key := p.cfg.APIKey; len(key) >= 4 {
			detail = strings.ReplaceAll(detail, key, "[key]")
		}
		var msg string
		cause := err
		switch code := apiErr.StatusCode; {
		case code == http.StatusUnauthorized:
			msg = "The model server rejected the API key"
		case code == http.StatusForbidden:
			msg = "The model server refused access with this API key"
		case code == http.StatusNotFound:
			msg = fmt.Sprintf("The model server does not know the model %q (or %s is not an OpenAI-compatible address)", p.cfg.Model, p.cfg.BaseURL)
		case code == http.StatusTooManyRequests:
			msg = "The model server is rate limiting requests; try again in a moment"
		case code == http.StatusBadRequest && (apiErr.Code == "context_length_exceeded" || isContextFull(detail)):
			msg = "The model's context window is full"
			cause = fmt.Errorf("%w: %w", llm.ErrContextFull, err)
			if n := statedLimit(apiErr); n > 0 {
				cause = fmt.Errorf("%w: %w", &llm.ContextFullError{Limit: n}, err)
			}
		case code == http.StatusBadRequest && refusesTools(detail):
			msg = "The model does not support tools"
			cause = fmt.Errorf("%w: %w", llm.ErrNoTools, err)
		case code >= 500:
			msg = fmt.Sprintf("The model server failed (HTTP %d)", code)
		default:
			msg = fmt.Sprintf("The model server rejected the request (HTTP %d)", code)
		}
		if detail != "" {
			msg += ": " + detail
		}
		return chat.Wrap(chat.CodeModel, cause, "%s", msg)
	}
	var netErr net.Error
	var opErr *net.OpError
	if errors.As(err, &opErr) || errors.As(err, &netErr) {
		return chat.Wrap(chat.CodeModel, err, "Could not reach %s: %v", p.cfg.BaseURL, err)
	}
	return chat.Wrap(chat.CodeModel, err, "The model's reply could not be read: %v", err)
}

// refusesTools recognises the servers' wording for a model without tool
// calling: Ollama's "... does not support tools", LM Studio's and others'
// "... does not support function calling" or "tools are not supported".
func refusesTools(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "does not support tools") || strings.Contains(d, "does not support function") ||
		strings.Contains(d, "tools are not supported") || strings.Contains(d, "tool use is not supported")
}

func isContextFull(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "context length") || strings.Contains(d, "context window") ||
		strings.Contains(d, "maximum context") || strings.Contains(d, "too many tokens") ||
		strings.Contains(d, "context size")
}

// limitWordings find the context length in the servers' words for a
// request that is too long: OpenAI's and vLLM's "This model's maximum
// context length is 4096 tokens", llama.cpp's older "the request exceeds
// the available context size (4096 tokens)" and llama-cpp-python's
// "exceed context window of 4096".
var limitWordings = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+)`),
	regexp.MustCompile(`context size \((\d+) tokens\)`),
	regexp.MustCompile(`context window of (\d+)`),
}

// statedLimit is the context length a server named in its refusal, or 0:
// from its words, or from llama.cpp's exceed_context_size_error, which
// carries it as the field n_ctx.
func statedLimit(apiErr *oa.Error) int {
	if f, ok := apiErr.JSON.ExtraFields["n_ctx"]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(f.Raw())); err == nil && n > 0 {
			return n
		}
	}
	for _, re := range limitWordings {
		if m := re.FindStringSubmatch(strings.ToLower(apiErr.Message)); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}
