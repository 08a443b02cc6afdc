package contextwin

import (
	"encoding/json"
	"math"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/contextwin/bpe"
	"github.com/errand-app/errand/backend/llm"
)

// Fixed costs of the chat format, in tokens, as OpenAI documents them for
// its chat models: each message is wrapped in a few tokens of its own, a
// tool call carries its id and type, and the reply is primed.
const (
	perMessage  = 4
	perToolCall = 8
	perTool     = 8
	replyPrimer = 3
)

// encodingFor is the encoding a model's text is counted with (see
// backend/contextwin/bpe: its vocabulary is read in place from the binary).
func encodingFor(model string) *bpe.Encoding {
	if usesO200k(model) {
		return bpe.O200kBase
	}
	return bpe.Cl100kBase
}

// usesO200k reports whether a model counts with o200k_base (OpenAI's
// models since gpt-4o); every other model is counted with cl100k_base and
// calibrated.
func usesO200k(model string) bool {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	for _, p := range []string{"gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt-4o", "gpt-oss"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Calibration bounds: a server may count more tokens than our tokenizer
// (another family's vocabulary) but its factor is never trusted beyond
// these.
const (
	minFactor = 1.0
	maxFactor = 2.5
)

// Counter counts tokens for one model. Text counts are exact for OpenAI's
// models; for others the calibration factor, learned from the prompt
// tokens the server reports (Observe), scales them. It is safe for
// concurrent use.
type Counter struct {
	encoding *bpe.Encoding
	// claude counts images by Anthropic's formula, not OpenAI's.
	claude bool

	mu     sync.Mutex
	factor float64
}

// NewCounter returns a counter for the model.
func NewCounter(model string) *Counter {
	return &Counter{encoding: encodingFor(model), factor: 1, claude: isClaude(model)}
}

// Text counts the tokens of s, uncalibrated. A byte that is not part of a
// UTF-8 character counts as U+FFFD.
func (c *Counter) Text(s string) int {
	return c.encoding.Count(s)
}

// Message counts one message with its wrapping, the reasoning it passes
// back and its tool calls, uncalibrated.
func (c *Counter) Message(m llm.Message) int {
	n := perMessage + c.Text(m.Content) + c.Text(m.Reasoning)
	for _, tc := range m.ToolCalls {
		n += perToolCall + c.Text(tc.Name) + c.Text(tc.Arguments)
	}
	if m.ToolCallID != "" {
		n += c.Text(m.ToolCallID)
	}
	for _, img := range m.Images {
		n += c.Image(img)
	}
	return n
}

// Tools counts the tool definitions of a request, uncalibrated.
func (c *Counter) Tools(tools []llm.Tool) int {
	n := 0
	for _, t := range tools {
		b, _ := json.Marshal(t.Parameters)
		n += perTool + c.Text(t.Name) + c.Text(t.Description) + c.Text(string(b))
	}
	return n
}

// Request counts a whole request, calibrated: what Errand believes the
// server will count.
func (c *Counter) Request(req llm.Request) int { return c.Scale(c.Raw(req)) }

// Scale applies the calibration to an uncalibrated count, rounding up.
func (c *Counter) Scale(n int) int {
	c.mu.Lock()
	f := c.factor
	c.mu.Unlock()
	return int(math.Ceil(float64(n) * f))
}

// Factor is the calibration factor in use.
func (c *Counter) Factor() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.factor
}

// Observe learns from one request: counted is our uncalibrated count of
// it, reported the prompt tokens the server said it held. The factor
// moves halfway towards their ratio, within bounds; a report of 0 (the
// server says nothing) teaches nothing.
func (c *Counter) Observe(counted, reported int) {
	if counted <= 0 || reported <= 0 {
		return
	}
	ratio := float64(reported) / float64(counted)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.factor = min(maxFactor, max(minFactor, (c.factor+ratio)/2))
}

// Raw counts a request without calibration, for Observe.
func (c *Counter) Raw(req llm.Request) int {
	n := replyPrimer + c.Tools(req.Tools)
	for _, m := range req.Messages {
		n += c.Message(m)
	}
	return n
}
