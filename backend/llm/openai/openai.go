// Package openai is the llm.Provider for any OpenAI-compatible Chat
// Completions server (OpenAI, Ollama, LM Studio, OpenRouter, vLLM, Errand's
// own demo model), built on openai-go.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// Config says where the model is.
type Config struct {
	BaseURL string // e.g. https://api.openai.com/v1 or http://localhost:11434/v1
	APIKey  string // may be empty for local servers
	// NoAuth sends no Authorization header at all (an empty APIKey sends a
	// placeholder some local servers want): the key saved for this kind of
	// server belongs to another address.
	NoAuth bool
	Model  string
	// MaxRetries for 429 and 5xx answers (openai-go honours Retry-After).
	// Zero means the default of 2; negative means none.
	MaxRetries int
	HTTPClient *http.Client
	// ContextLength is the model's context length as the server reported
	// it (0: it did not).
	ContextLength int
	// Learned, when set, is shared by every Provider of the same server
	// and model, so that what one learned the next knows; nil gives the
	// Provider its own.
	Learned *Learned
}

// Learned is what the adapter found out about a server and model from its
// answers.
type Learned struct {
	// noReasoningField is set once the server rejected reasoning_content
	// on a message: it is not sent to this server again.
	noReasoningField atomic.Bool
	// opensInThink is set once a reply began inside a <think> block (it
	// only closed one): later replies are read that way from their start.
	opensInThink atomic.Bool
}

// Provider talks to one model on one server.
type Provider struct {
	client  oa.Client
	cfg     Config
	learned *Learned
}

var _ llm.Provider = (*Provider)(nil)
var _ llm.ContextReporter = (*Provider)(nil)

// ReportedContextLength is Config.ContextLength.
func (p *Provider) ReportedContextLength() int { return p.cfg.ContextLength }

// New returns a Provider for cfg.
func New(cfg Config) *Provider {
	key := cfg.APIKey
	if key == "" && !cfg.NoAuth {
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
	learned := cfg.Learned
	if learned == nil {
		learned = &Learned{}
	}
	return &Provider{client: oa.NewClient(opts...), cfg: cfg, learned: learned}
}

// Model names the configured model.
func (p *Provider) Model() string { return p.cfg.Model }

// Stream sends req and streams the reply; see llm.Provider. A server that
// rejects the reasoning passed back on a message gets the request again
// without it, and never again.
func (p *Provider) Stream(ctx context.Context, req llm.Request, out llm.Deltas) (llm.Response, error) {
	passBack := !p.learned.noReasoningField.Load()
	resp, err := p.stream(ctx, req, out, passBack)
	if passBack && err != nil && ctx.Err() == nil && rejectsReasoningField(err) && passesReasoning(req.Messages) {
		p.learned.noReasoningField.Store(true)
		resp, err = p.stream(ctx, req, out, false)
	}
	if err != nil {
		if ctx.Err() != nil {
			return resp, ctx.Err()
		}
		return resp, p.explain(err)
	}
	return resp, nil
}

// stream makes one call; its error is the client's, unexplained.
func (p *Provider) stream(ctx context.Context, req llm.Request, out llm.Deltas, passBack bool) (llm.Response, error) {
	params := oa.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.cfg.Model),
		Messages:      toMessages(req.Messages, passBack),
		StreamOptions: oa.ChatCompletionStreamOptionsParam{IncludeUsage: oa.Bool(true)},
	}
	if req.ReasoningEffort != "" {
		params.ReasoningEffort = shared.ReasoningEffort(req.ReasoningEffort)
	}
	params.Tools = toolParams(req.Tools, req.ToolsKey)

	stream := p.newChunks(ctx, params)
	defer stream.close()
	r := replyOf{reply: newReplyReader(out, p.learned.opensInThink.Load()), calls: map[int64]*chat.ToolCall{}}
	for stream.next() {
		r.chunk(stream.data)
	}
	resp := r.resp
	if err := stream.err; err != nil {
		return resp, err
	}
	resp.Reasoning, resp.Content = r.reply.finish()
	if r.reply.closedOnly {
		p.learned.opensInThink.Store(true)
	}
	resp.ToolCalls = orderCalls(r.calls)
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

// toMessages writes the request's messages. With passBack, the assistant
// messages of the current turn that made tool calls carry their reasoning
// as reasoning_content (DeepSeek's thinking mode requires it; servers that
// do not know the field ignore it or reject it, see Stream).
func toMessages(msgs []llm.Message, passBack bool) []oa.ChatCompletionMessageParamUnion {
	out := make([]oa.ChatCompletionMessageParamUnion, 0, len(msgs))
	turn := turnStart(msgs)
	for i, m := range msgs {
		switch m.Role {
		case chat.RoleSystem:
			out = append(out, oa.SystemMessage(m.Content))
		case chat.RoleUser:
			out = append(out, userMessage(m.Content, m.Images))
		case chat.RoleTool:
			out = append(out, oa.ToolMessage(m.Content, m.ToolCallID))
			out = appendToolImages(out, msgs, i)
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
			if passBack && i >= turn && len(m.ToolCalls) > 0 && m.Reasoning != "" {
				a.SetExtraFields(map[string]any{"reasoning_content": m.Reasoning})
			}
			out = append(out, oa.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	return out
}

// turnStart is the index of the current turn's first message: the one
// after the last user message.
func turnStart(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == chat.RoleUser {
			return i + 1
		}
	}
	return 0
}

// passesReasoning reports whether toMessages passes reasoning back for msgs.
func passesReasoning(msgs []llm.Message) bool {
	for _, m := range msgs[turnStart(msgs):] {
		if m.Role == chat.RoleAssistant && len(m.ToolCalls) > 0 && m.Reasoning != "" {
			return true
		}
	}
	return false
}

// rejectsReasoningField recognises a 400 that refuses reasoning_content
// as a field the server does not know ("Extra inputs are not permitted",
// "unknown field", "Additional properties are not allowed", …).
func rejectsReasoningField(err error) bool {
	var apiErr *oa.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	d := strings.ToLower(apiErr.Message + " " + apiErr.Param + " " + apiErr.RawJSON())
	if !strings.Contains(d, "reasoning_content") {
		return false
	}
	for _, w := range []string{"unknown", "extra", "not permitted", "unrecognized", "unexpected", "not allowed", "additional propert"} {
		if strings.Contains(d, w) {
			return true
		}
	}
	return false
}

// explain turns a failed request into a chat.Error a person understands.
func (p *Provider) explain(err error) error {
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		return chat.Wrap(chat.CodeModel, err, "The model server failed mid-reply: %s", p.scrub(streamErrorDetail(streamErr)))
	}
	var apiErr *oa.Error
	if errors.As(err, &apiErr) {
		detail := p.scrub(strings.TrimSpace(apiErr.Message))
		var msg string
		cause := err
		switch code := apiErr.StatusCode; {
		case code == http.StatusBadRequest && (apiErr.Code == "context_length_exceeded" || isContextFull(detail)):
			msg = "The model's context window is full"
			cause = fmt.Errorf("%w: %w", llm.ErrContextFull, err)
			if n := statedLimit(apiErr); n > 0 {
				cause = fmt.Errorf("%w: %w", &llm.ContextFullError{Limit: n}, err)
			}
		case code == http.StatusBadRequest && refusesTools(detail):
			msg = "The model does not support tools"
			cause = fmt.Errorf("%w: %w", llm.ErrNoTools, err)
		case (code == http.StatusBadRequest || code == http.StatusUnprocessableEntity) && llm.RefusesImages(detail):
			msg = "The model does not take images"
			cause = fmt.Errorf("%w: %w", llm.ErrNoImages, err)
		default:
			msg = llm.StatusMessage(code, p.cfg.Model, p.cfg.BaseURL, "is not an OpenAI-compatible address")
			cause = llm.KeyRefusal(code, err)
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

// scrub removes the API key from a server's words: a server may repeat
// the key it was sent; a message never does.
func (p *Provider) scrub(detail string) string {
	if key := p.cfg.APIKey; len(key) >= 4 {
		detail = strings.ReplaceAll(detail, key, "[key]")
	}
	return detail
}

// streamErrorDetail is the message of an error event inside a stream,
// {"error":{"message":…,"code":…}} or {"error":"…"}, with its code.
func streamErrorDetail(e *ssestream.StreamError) string {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(e.Event.Data, &body) != nil {
		return "an unreadable error event"
	}
	if s := stringOf(body.Error); s != "" {
		return s
	}
	var detail struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	_ = json.Unmarshal(body.Error, &detail)
	msg := strings.TrimSpace(detail.Message)
	if msg == "" {
		msg = "an error with no message"
	}
	if code := strings.Trim(string(detail.Code), `"`); code != "" && code != "null" {
		msg += " (" + code + ")"
	}
	return msg
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
