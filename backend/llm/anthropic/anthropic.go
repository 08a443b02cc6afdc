// Package anthropic is the llm.Provider for Anthropic's Messages API
// (Claude), built on the official anthropic-sdk-go: streamed text and
// tool calls, extended thinking whose signed blocks go back to the server
// where the API requires them, and prompt caching of the system prompt,
// the tools and the conversation so far.
package anthropic

import (
	"context"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/errand-app/errand/backend/llm"
)

// BaseURL is Anthropic's API; the SDK adds /v1/messages.
const BaseURL = "https://api.anthropic.com"

// DefaultMaxTokens bounds the answer (thinking aside) when Config sets no
// MaxTokens: enough for a long reply or a whole file written by a tool
// call, and within every current Claude model's output limit.
const DefaultMaxTokens = 8192

// Thinking budgets (budget_tokens) for llm.Request.ReasoningEffort. With
// thinking on, max_tokens is the budget plus the answer's MaxTokens, since
// the thinking counts toward max_tokens. An effort of "" (or any other
// word) turns thinking off: it costs tokens and time, and the person
// chooses it per model.
var thinkingBudgets = map[string]int64{
	"low":    2048,
	"medium": 8192,
	"high":   24576,
}

// ThinkingBudget is the budget_tokens an effort asks for; 0 means thinking
// is off.
func ThinkingBudget(effort string) int64 { return thinkingBudgets[effort] }

// Config says where the model is.
type Config struct {
	// BaseURL is the API's root, e.g. https://api.anthropic.com (a
	// trailing /v1 is accepted and dropped).
	BaseURL string
	APIKey  string
	Model   string
	// MaxRetries for 429, 529 and 5xx answers (the SDK honours
	// Retry-After). Zero means the SDK's default of 2; negative means none.
	MaxRetries int
	// HTTPClient carries every request (nil: a plain http.Client).
	HTTPClient *http.Client
	// MaxTokens bounds the answer; 0 means DefaultMaxTokens.
	MaxTokens int
	// ContextLength is the model's context length as the server reported
	// it (0: it did not).
	ContextLength int
}

// Provider talks to one Claude model.
type Provider struct {
	client sdk.Client
	cfg    Config
}

var _ llm.Provider = (*Provider)(nil)
var _ llm.ContextReporter = (*Provider)(nil)

// New returns a Provider for cfg. The environment (ANTHROPIC_API_KEY and
// the like) is not read: cfg is the whole configuration.
func New(cfg Config) *Provider {
	cfg.BaseURL = strings.TrimSuffix(strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/"), "/v1")
	if cfg.BaseURL == "" {
		cfg.BaseURL = BaseURL
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cfg.BaseURL + "/"),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(client),
	}
	switch {
	case cfg.MaxRetries < 0:
		opts = append(opts, option.WithMaxRetries(0))
	case cfg.MaxRetries > 0:
		opts = append(opts, option.WithMaxRetries(cfg.MaxRetries))
	}
	return &Provider{client: sdk.NewClient(opts...), cfg: cfg}
}

// Model names the configured model.
func (p *Provider) Model() string { return p.cfg.Model }

// ReportedContextLength is Config.ContextLength.
func (p *Provider) ReportedContextLength() int { return p.cfg.ContextLength }

// Stream sends req and streams the reply; see llm.Provider.
func (p *Provider) Stream(ctx context.Context, req llm.Request, out llm.Deltas) (llm.Response, error) {
	stream := p.client.Messages.NewStreaming(ctx, p.params(req))
	defer stream.Close()
	var r reply
	for stream.Next() {
		r.apply(stream.Current(), out)
	}
	if err := stream.Err(); err != nil {
		if ctx.Err() != nil {
			return r.response(), ctx.Err()
		}
		return r.response(), p.explain(err)
	}
	return r.response(), nil
}
